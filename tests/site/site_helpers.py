"""Helpers for the site tests: copy the course with the fixture lesson added, and build it with mkdocs."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_NOTEBOOKS = Path(__file__).parent / "fixtures" / "notebooks"
GENERATED = shutil.ignore_patterns("lessons", "glossary.md", "index.md", "__pycache__", ".*")  # .* : temp files of a concurrent build


def copy_course(target: Path) -> Path:
    """The files `mkdocs build` reads, from this checkout, plus the fixture lesson (90_fixture) in both languages."""
    shutil.copy2(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    shutil.copytree(ROOT / "site", target / "site", ignore=GENERATED)
    course = ROOT / "src" / "celerylab" / "course.yml"
    if course.is_file():
        (target / "src" / "celerylab").mkdir(parents=True)
        shutil.copy2(course, target / "src" / "celerylab" / "course.yml")
        with (target / "src" / "celerylab" / "course.yml").open("a", encoding="utf-8") as stream:
            stream.write("\n- l90_fixture\n")  # the fixture lesson is published like any lesson course.yml lists
    if (ROOT / "notebooks").is_dir():
        shutil.copytree(ROOT / "notebooks", target / "notebooks", ignore=shutil.ignore_patterns(".*"))
    shutil.copytree(FIXTURE_NOTEBOOKS, target / "notebooks", dirs_exist_ok=True)
    return target


def mkdocs_build(config: Path, site_dir: Path) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` in a separate process, so each build starts from a clean plugin state."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site_dir)],
        capture_output=True, text=True, timeout=240, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
