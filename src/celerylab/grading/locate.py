"""Finding the course's generated notebooks (exercises/, solutions/) by their metadata."""
from __future__ import annotations

import json
import os
from pathlib import Path

import celerylab
from celerylab.course import LESSONS_DIR

REPO_ROOT = Path(celerylab.__file__).resolve().parents[2]


def notebook_meta(path: Path) -> dict:
    """`metadata.celerylab` of a notebook file, or {} when it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        meta = data.get("metadata", {}).get("celerylab", {})
        return meta if isinstance(meta, dict) else {}
    except (OSError, ValueError, AttributeError):
        return {}


def candidate_folders(variant: str, folder: str | Path | None, root: Path | None) -> list[Path]:
    """Where `variant` notebooks may be: the folder given, then the course's own, the current folder, the repo."""
    if folder:
        return [Path(folder)]
    places = []
    if root is not None and Path(root).resolve() != LESSONS_DIR.resolve():
        places.append(Path(root).resolve().parent / variant)
    places += [Path(os.getcwd()) / variant, REPO_ROOT / variant]
    return places


def course_notebook(lesson: str, lang: str, variant: str, folder: str | Path | None = None,
                    root: Path | None = None) -> Path | None:
    """The `variant` notebook of `lesson` in `lang` (``folder/lang/*.ipynb`` or ``folder/*.ipynb``)."""
    for base in candidate_folders(variant, folder, root):
        for directory in (base / lang, base):
            if not directory.is_dir():
                continue
            for path in sorted(directory.glob("*.ipynb")):
                meta = notebook_meta(path)
                if meta.get("lesson") == lesson and meta.get("variant") == variant and meta.get("lang", lang) == lang:
                    return path
    return None
