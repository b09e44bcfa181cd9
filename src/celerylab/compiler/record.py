"""`python -m celerylab.compiler.record l08_rabbitmq`: run a lesson's page on live services with recording on and
keep what it measured as the lesson's recorded.json (the figures its page shows where the services are missing).

The page does the recording: while RECORD_ENV names a file, each measurement it makes is kept there (lesson 08's
`page.measure`); this runs the page as `celerylab build` does and copies the file into the lesson folder.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from celerylab import atomic
from celerylab.compiler.executor import execute_all
from celerylab.compiler.model import Target
from celerylab.compiler.plan import plan_lesson
from celerylab.course import Course

RECORD_ENV = "CELERYLAB_RECORD"
RECORDED = "recorded.json"


def record(name: str, lang: str = "pt", *, timeout: float = 900) -> Path:
    """Execute lesson `name`'s notebook in `lang` with recording on; write the lesson's recorded.json."""
    [lesson] = Course().lessons([name])
    target = Target(lesson, lang, "lesson")
    notebook = plan_lesson(lesson, (lang,))[target]
    with tempfile.TemporaryDirectory(prefix="celerylab-record-") as folder:
        kept = Path(folder) / RECORDED
        os.environ[RECORD_ENV] = str(kept)  # the kernel inherits it (compiler.executor.kernel_env)
        try:
            [outcome] = execute_all([(target, notebook)], timeout=timeout, parallel=1)
        finally:
            del os.environ[RECORD_ENV]
        if outcome.error:
            raise SystemExit(outcome.error)
        if not kept.is_file():
            raise SystemExit(f"{name}: the page recorded nothing (no {RECORD_ENV} support)")
        return atomic.write_text(lesson.folder / RECORDED, kept.read_text(encoding="utf-8"))


if __name__ == "__main__":
    print(record(*sys.argv[1:3]))  # lesson name, then optionally the language
