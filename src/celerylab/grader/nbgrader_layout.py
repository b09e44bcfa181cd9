"""nbgrader's submitted layout (`<learner>/<assignment>/<notebook>.ipynb` beside `timestamp.txt`): when it was handed in."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

TIMESTAMP = "timestamp.txt"
LIMIT = 200  # bytes: nbgrader writes one line ("2026-12-06 03:50:12.123456 UTC")


def timestamp_file(path: Path, file: str) -> Path | None:
    """The `timestamp.txt` dating the notebook at `path` (`file`: its path under the submissions folder), only in
    the layout's place: beside a notebook two folders deep."""
    return path.parent / TIMESTAMP if len(PurePosixPath(file).parts) == 3 else None


def parse(text: str) -> datetime | None:
    """nbgrader's timestamp (UTC unless it names an offset: ``2026-12-06 03:50:12.123456 UTC``) or None."""
    text = text.strip().removesuffix("UTC").strip()
    if not text or "\n" in text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def submitted_at(path: Path, file: str) -> str | None:
    """When nbgrader (or `celerylab collect`) recorded the notebook as handed in, as an ISO date-time; None when the
    layout has no readable timestamp. Read as submissions are (intake.read): a small regular file, never a FIFO."""
    where = timestamp_file(path, file)
    if where is None:
        return None
    from celerylab.grader.intake import read
    from celerylab.grader.submission import Rejected

    if not where.exists():
        return None
    try:
        when = parse(read(where, path.parents[2], LIMIT).decode("utf-8", errors="replace"))
    except Rejected:
        return None
    return when.isoformat(timespec="seconds") if when else None


def write(folder: Path, when: datetime) -> Path:
    """Write nbgrader's `timestamp.txt` in an assignment `folder` (as nbgrader formats it, in UTC)."""
    from celerylab.atomic import write_text

    utc = when.astimezone(timezone.utc).replace(tzinfo=None)
    return write_text(folder / TIMESTAMP, utc.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
