"""The real course: generated files are fresh, and pt/en notebooks never drift apart."""
from __future__ import annotations

import json

import pytest

from celerylab.compiler import stale
from celerylab.compiler.model import LANGS, VARIANTS, Lesson, Target
from celerylab.compiler.pipeline import build
from celerylab.course import Course

COURSE = Course.at()
ROOT = COURSE.output_root
NAMES = COURSE.lesson_names()


def written(name: str) -> Lesson:
    lesson = Lesson(name, COURSE.lessons_dir / name)
    if not lesson.source.is_file():
        pytest.skip(f"{name} has no lesson.md yet")
    return lesson


def shape(path) -> list[tuple]:
    """(id, exercise, check) of every cell present in both languages, in order."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(c["id"], c["metadata"]["celerylab"].get("exercise"), c["metadata"]["celerylab"].get("check"))
            for c in cells if "lang" not in c["metadata"].get("celerylab", {})]


def drift(lesson: Lesson, root) -> list[str]:
    problems = []
    for variant in VARIANTS:
        pt, en = (Target(lesson, lang, variant).path(root) for lang in LANGS)
        if shape(pt) != shape(en):
            problems.append(f"{pt.name} ({variant}): pt and en cells differ")
    return problems


def test_course_lists_lessons():
    assert NAMES and all(name.startswith("l") for name in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_generated_files_are_fresh(name):
    lesson = written(name)
    problems = stale.check([lesson], ROOT)
    assert problems == [], "run `celerylab build`: " + ", ".join(f"{p.relative_to(ROOT)} ({r})" for p, r in problems)


@pytest.mark.parametrize("name", NAMES)
def test_pt_and_en_never_drift(name):
    assert drift(written(name), ROOT) == []


def test_drift_is_detected(fixture_lessons, tmp_path):
    root, [lesson] = tmp_path / "out", Course(fixture_lessons, fixture_lessons / "course.yml").lessons()
    build([lesson], root, execute=False)
    assert drift(lesson, root) == []
    path = Target(lesson, "en", "solutions").path(root)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cells"][1], data["cells"][2] = data["cells"][2], data["cells"][1]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert drift(lesson, root) == ["99_fixture.ipynb (solutions): pt and en cells differ"]
