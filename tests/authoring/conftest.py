"""Fixtures for the authoring tests: a tmp course holding one freshly scaffolded lesson, safe to break."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from celerylab.authoring.scaffold import new_lesson


@pytest.fixture(autouse=True)
def keep_language(monkeypatch):
    """The CLI's --lang and set_lang() change process-wide state; put it back after each test."""
    from celerylab import i18n

    monkeypatch.setattr(i18n, "_current", "en")
    monkeypatch.setenv("CELERYLAB_LANG", os.environ.get("CELERYLAB_LANG", "pt"))


@pytest.fixture
def lessons(tmp_path) -> Path:
    """tmp/lessons with course.yml and lesson l42_demo (from the template)."""
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "course.yml").write_text("# the test course\n", encoding="utf-8")
    new_lesson("42", "demo", folder / "course.yml", folder, "Demonstração", "Demo")
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
