"""`celerylab reset EXERCISE`: progress and hints forgotten, the answer cell back to its stub, its module gone."""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

from celerylab import cli
from celerylab.checks.learner_state import LearnerState
from celerylab.course import Course

FIXTURES = Path(__file__).parents[1] / "checks" / "fixtures"
sys.path.insert(0, str(FIXTURES))
import notebooks  # noqa: E402

COURSE = FIXTURES / "course"


def test_reset_one_exercise(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CELERYLAB_ROOT", str(tmp_path))
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    path = tmp_path / "exercises" / "en" / "90_fixture_exercises.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(notebooks.build("en", "exercises", {"greet": "solution", "double": "solution"}), str(path))
    (path.parent / "ex_greet.py").write_text("solved")
    course = Course.at(COURSE, tmp_path)  # the course the command resolves: its notebooks in $CELERYLAB_ROOT
    state = LearnerState(lang="en", course=course)
    state.record("l90.greet", passed=True)
    state.record("l90.double", passed=True)
    state.reveal_hint("l90.greet", 3)
    assert cli.main(["reset", "l90.greet", "--lessons-dir", str(COURSE), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Progress and hints of l90.greet cleared." in out and "back to its stub" in out
    again = LearnerState(lang="en", course=course)
    assert again.status("l90.greet") == "not-started" and again.hints_shown("l90.greet") == 0
    assert again.passed("l90.double")                                       # only that exercise
    stub = notebooks.build("en", "exercises")
    cells = {c.id: c.source for c in nbformat.read(str(path), as_version=4).cells}
    assert all(cells[c.id] == c.source for c in stub.cells if "greet" in c.id)
    assert any(cells[c.id] != c.source for c in stub.cells if "double" in c.id)  # the other answer is kept
    assert not (path.parent / "ex_greet.py").exists()


def jupyterlab_labels() -> dict[str, dict[str, str]]:
    """The title and buttons of JupyterLab's "File Changed" dialog (docregistry's context: Cancel, Revert, then
    Overwrite, the last button, which is the one focused and the one Enter picks) as the installed JupyterLab
    writes them in English and its pt-BR language pack translates them."""
    import json
    from importlib.resources import files

    bundles = [path for path in files("jupyterlab").joinpath("static").iterdir() if path.name.endswith(".js")]
    source = next(text for text in (path.read_text(encoding="utf-8") for path in bundles) if '"File Changed"' in text)
    dialog = source[source.index('"File Changed"') - 800:source.index('"File Changed"')]
    assert '__("Revert")' in dialog and '__("Overwrite")' in dialog and dialog.index("Revert") < dialog.index("Overwrite")
    pack = pytest.importorskip("jupyterlab_language_pack_pt_BR")
    catalog = json.loads((Path(pack.__file__).parent / "locale" / "pt_BR" / "LC_MESSAGES" / "jupyterlab.json")
                         .read_text(encoding="utf-8"))
    messages = catalog.get("locale_data", catalog).get("jupyterlab", catalog)
    english = ("File Changed", "Revert", "Overwrite")
    return {"en": dict(zip(english, english)), "pt": {label: messages[label][0] for label in english}}


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_reset_names_the_button_of_jupyterlabs_file_changed_dialog_that_keeps_it(tmp_path, monkeypatch, capsys, lang):
    """With the notebook open, JupyterLab's next save asks «File Changed» with Overwrite focused: Enter writes the
    old answer back. The reset says, with the labels the learner's JupyterLab shows, to click Revert."""
    monkeypatch.setenv("CELERYLAB_ROOT", str(tmp_path))
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    path = Course.at(COURSE, tmp_path).notebook_path("l90_fixture", lang, "exercises")
    path.parent.mkdir(parents=True)
    nbformat.write(notebooks.build(lang, "exercises", {"greet": "solution"}), str(path))
    assert cli.main(["reset", "l90.greet", "--lessons-dir", str(COURSE), "--lang", lang]) == 0
    out = capsys.readouterr().out
    labels = jupyterlab_labels()[lang]
    said = out[out.index(labels["File Changed"]):]
    assert labels["Revert"] in said and labels["Overwrite"] in said and "Enter" in said, out
    assert said.index(labels["Revert"]) < said.index(labels["Overwrite"])  # the one to click comes first
