"""The submissions folder collect writes: nbgrader's layout, one notebook per lesson, a roster of every learner."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from celerylab.grader.intake import find
from celerylab.grader.nbgrader_layout import submitted_at
from celerylab.grader.roster import match, read
from celerylab.hub.handed_in import Learner, Notebook, drop_untouched, write

NOW = datetime(2026, 12, 6, 4, 0, tzinfo=timezone.utc)


def test_layout_roster_and_the_newest_of_two_languages(tmp_path):
    ana = Learner("ana", "Ana Souza", [Notebook("01_retries_exercises.ipynb", b"pt", NOW - timedelta(hours=1)),
                                       Notebook("01_retries_exercises.ipynb", b"en", NOW),
                                       Notebook("02_workers_exercises.ipynb", b"w", NOW)])
    bia = Learner("bia", problem="nothing")
    assert write([bia, ana], tmp_path) == 2
    found = {each.key: each for each in find(tmp_path)}
    assert sorted(found) == ["ana/01_retries/01_retries_exercises", "ana/02_workers/02_workers_exercises"]
    retries = found["ana/01_retries/01_retries_exercises"]
    assert retries.path.read_bytes() == b"en"
    assert submitted_at(retries.path, retries.file) == NOW.isoformat()
    roster = read(tmp_path / "roster.csv")
    assert sorted(roster) == ["ana", "bia"]
    assert match(roster, retries.key)["learner"] == "Ana Souza"


@pytest.mark.parametrize("name", ["../x", "a/b", ".hidden", ""])
def test_a_learner_name_that_is_no_folder_name_is_skipped_and_named(tmp_path, name):
    odd = Learner(name, notebooks=[Notebook("01_retries_exercises.ipynb", b"", NOW)])
    assert write([odd, Learner("ana")], tmp_path / "out") == 0
    assert odd.problem and odd.notebooks == []
    assert not (tmp_path / "x").exists() and list(find(tmp_path)) == []
    assert sorted(read(tmp_path / "out" / "roster.csv")) == ["ana"]


def test_notebooks_still_the_courses_own_are_left_out(tmp_path):
    import nbformat

    course = tmp_path / "exercises" / "pt"
    course.mkdir(parents=True)
    stub = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = None  # your answer")])
    (course / "01_retries_exercicios.ipynb").write_text(nbformat.writes(stub))
    saved = nbformat.writes(stub).replace('"metadata": {}', '"metadata": {"saved": true}', 1)  # opened, saved
    answered = nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]))
    ana = Learner("ana", notebooks=[Notebook("01_retries_exercicios.ipynb", saved.encode(), NOW, "pt")])
    bia = Learner("bia", notebooks=[Notebook("01_retries_exercicios.ipynb", answered.encode(), NOW, "pt"),
                                    Notebook("01_retries_exercicios.ipynb", saved.encode(), NOW, "en")])
    assert drop_untouched([ana, bia], tmp_path / "exercises") == 1
    assert ana.notebooks == [] and [each.lang for each in bia.notebooks] == ["pt", "en"]  # no English original
