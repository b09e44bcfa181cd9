"""Finding the course's generated notebooks (exercises/, solutions/) by their metadata."""
from __future__ import annotations

import os
from pathlib import Path

from celerylab.course import LESSONS_DIR, Course
from celerylab.notebook_meta import NotebookMeta


def candidate_folders(variant: str, folder: str | Path | None, root: Path | None) -> list[Path]:
    """Where `variant` notebooks may be: the folder given, then the course's own, the current folder, the repo."""
    if folder:
        return [Path(folder)]
    places = []
    if root is not None and Path(root).resolve() != LESSONS_DIR.resolve():
        places.append(Path(root).resolve().parent / variant)
    places += [Path(os.getcwd()) / variant, Course.default().output_root / variant]
    return places


def course_notebook(lesson: str, lang: str, variant: str, folder: str | Path | None = None,
                    root: Path | None = None) -> Path | None:
    """The `variant` notebook of `lesson` in `lang` (``folder/lang/*.ipynb`` or ``folder/*.ipynb``)."""
    for base in candidate_folders(variant, folder, root):
        for directory in (base / lang, base):
            if not directory.is_dir():
                continue
            for path in sorted(directory.glob("*.ipynb")):
                meta = NotebookMeta.read(path)
                if meta.lesson == lesson and meta.variant == variant and (meta.lang or lang) == lang:
                    return path
    return None
