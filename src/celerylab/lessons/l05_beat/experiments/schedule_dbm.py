"""Which dbm module wrote a Beat's schedule file (`shelve` takes the first this Python has), and which it has."""
import sys
from dataclasses import dataclass
from pathlib import Path

from celerylab.lessons.l05_beat import schedule_file


@dataclass
class ScheduleDbm:
    python: str
    dbm_modules: list[str]   # the ones this Python can import, in the order dbm.open tries them for a new file
    written_with: str | None  # the module that wrote the file (None: no such file)


def schedule_dbm(path: Path) -> ScheduleDbm:
    return ScheduleDbm(sys.version.split()[0], schedule_file.available(), schedule_file.written_with(path))
