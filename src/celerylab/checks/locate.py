"""Finding the course's generated notebooks (exercises/, solutions/) and the learner's answers beside them."""
from __future__ import annotations

import os
from pathlib import Path

from celerylab.course import Course
from celerylab.notebook_meta import NotebookMeta


def candidate_folders(variant: str, folder: str | Path | None, course: Course) -> list[Path]:
    """Where `variant` notebooks may be: the folder given, else beside a course's lessons folder (one outside
    the package), the current folder, the course's output root."""
    if folder:
        return [Path(folder)]
    places = [] if course.in_package else [course.lessons_dir.parent / variant]
    places += [Path(os.getcwd()) / variant, course.output_root / variant]
    return places


def course_notebook(lesson: str, lang: str, variant: str, folder: str | Path | None = None, *,
                    course: Course) -> Path | None:
    """The `variant` notebook of `lesson` in `lang` (``folder/lang/*.ipynb`` or ``folder/*.ipynb``)."""
    for base in candidate_folders(variant, folder, course):
        for directory in (base / lang, base):
            if not directory.is_dir():
                continue
            for path in sorted(directory.glob("*.ipynb")):
                meta = NotebookMeta.read(path)
                if meta.lesson == lesson and meta.variant == variant and (meta.lang or lang) == lang:
                    return path
    return None


def answer_folders(lang: str, *, course: Course) -> list[Path]:
    """Where a learner's answer modules may be, in order: the current folder, then the exercises folders of
    `lang` and of the other language (the answer cells write beside the exercises notebook they run in)."""
    others = [other for other in ("pt", "en") if other != lang]
    folders = [Path(os.getcwd())]
    for base in candidate_folders("exercises", None, course):
        folders += [base / language for language in (lang, *others)]
    unique: list[Path] = []
    for folder in folders:
        if folder.is_dir() and folder.resolve() not in [seen.resolve() for seen in unique]:
            unique.append(folder)
    return unique


def answer_folder(modules: list[str], lang: str, *, course: Course) -> Path | None:
    """The first of `answer_folders` holding any of `modules` (file names such as ``ex_retries.py``)."""
    for folder in answer_folders(lang, course=course):
        if any((folder / module).is_file() for module in modules):
            return folder
    return None
