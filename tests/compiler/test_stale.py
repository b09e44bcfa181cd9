"""--check decides staleness without executing: missing, edited, outdated, unexecuted and orphan files."""
from __future__ import annotations

import json

from celerylab.compiler import stale
from celerylab.compiler.pipeline import build
from celerylab.course import Course


def test_check_detects_every_kind_of_staleness(fixture_lessons, tmp_path):
    root = tmp_path / "out"
    lessons = Course(fixture_lessons, fixture_lessons / "course.yml").lessons()
    assert {reason for _, reason in stale.check(lessons, root)} == {"build.stale.missing"}
    build(lessons, root, execute=False)
    assert stale.check(lessons, root, require_executed=False, whole_course=True) == []
    unexecuted = {(path.relative_to(root).as_posix(), reason) for path, reason in stale.check(lessons, root)}
    assert unexecuted == {(f"{folder}/{lang}/99_fixture.ipynb", "build.stale.not_executed")
                          for folder in ("notebooks", "solutions") for lang in ("pt", "en")}

    exercise = root / "exercises" / "en" / "99_fixture_exercises.ipynb"
    exercise.write_text(exercise.read_text(encoding="utf-8").replace("return x", "return x + 0"), encoding="utf-8")
    lesson_nb = root / "notebooks" / "pt" / "99_fixture.ipynb"
    data = json.loads(lesson_nb.read_text(encoding="utf-8"))
    data["cells"][2]["source"] = "print('hand edited')"
    lesson_nb.write_text(json.dumps(data), encoding="utf-8")
    (root / "solutions" / "pt" / "00_gone.ipynb").write_text("{}", encoding="utf-8")
    problems = {(p.relative_to(root).as_posix(), r) for p, r in
                stale.check(lessons, root, require_executed=False, whole_course=True)}
    assert problems == {("exercises/en/99_fixture_exercises.ipynb", "build.stale.content"),
                        ("notebooks/pt/99_fixture.ipynb", "build.stale.cells"),
                        ("solutions/pt/00_gone.ipynb", "build.stale.orphan")}

    source = lessons[0].source
    source.write_text(source.read_text(encoding="utf-8") + "\n+++ {\"id\": \"more\"}\n```python\nz = 3\n```\n",
                      encoding="utf-8")
    reasons = dict((p.relative_to(root).as_posix(), r) for p, r in stale.check(lessons, root, require_executed=False))
    assert reasons["solutions/en/99_fixture.ipynb"] == "build.stale.digest"
    assert reasons["exercises/pt/99_fixture_exercicios.ipynb"] == "build.stale.content"

