"""Finding the course's generated notebooks (exercises/, solutions/) by their metadata."""
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
