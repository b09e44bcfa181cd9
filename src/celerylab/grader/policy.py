"""The late policy: a deadline, a grace period, a penalty per started day late, and a cap on that penalty."""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from celerylab.grader.entry import Entry


def parse_when(text: str) -> datetime:
    """An ISO date or date-time (``2026-12-01T23:59``, ``2026-12-01 23:59-03:00``); naive means local time."""
    when = datetime.fromisoformat(text.strip())
    return when if when.tzinfo else when.astimezone()


def parse_duration(text: str) -> timedelta:
    """``90`` (seconds), ``15m``, ``2h``, ``1d``."""
    text = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    factor = units.get(text[-1:], None)
    number = float(text[:-1] if factor else text)
    if not math.isfinite(number) or number < 0:
        raise ValueError(text)
    return timedelta(seconds=number * (factor or 1))


@dataclass(frozen=True)
class LatePolicy:
    """Late = submitted after deadline + grace. Each started day late costs `penalty` % of the points,
    up to `cap` % (100: a very late submission scores zero; 0 with a penalty makes no sense)."""

    deadline: datetime | None = None
    grace: timedelta = timedelta(0)
    penalty: float = 0.0
    cap: float = 100.0

    def days_late(self, submitted: datetime) -> int:
        if self.deadline is None:
            return 0
        late = submitted - (self.deadline + self.grace)
        return max(0, math.ceil(late / timedelta(days=1))) if late > timedelta(0) else 0

    def percent_off(self, submitted: datetime) -> float:
        return min(self.cap, self.penalty * self.days_late(submitted))

    def apply(self, entry: Entry) -> Entry:
        """Sets an entry's ``late`` (days, percent off) and lowers its ``total`` (``raw_total`` kept)."""
        submitted = entry.submitted
        if self.deadline is None or not submitted:
            return entry
        try:
            when = parse_when(submitted)
        except ValueError:  # a roster date that is no date: noted, not penalised
            entry.late = {"error": submitted}
            return entry
        days, off = self.days_late(when), self.percent_off(when)
        entry.late = {"days": days, "percent_off": off, "deadline": self.deadline.isoformat()}
        if entry.raw_total is None:  # applied again on every run: from the raw total
            entry.raw_total = entry.total
        total = round(entry.raw_total * (100 - off) / 100, 2)
        entry.total = int(total) if float(total).is_integer() else total
        return entry


def stamp(seconds: float) -> str | None:
    """A file's modification time as an ISO date-time with its UTC offset; None for one no date can hold
    (a learner's file dated in the year 33658)."""
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc).astimezone().isoformat(timespec="seconds")
    except (ValueError, OverflowError, OSError):
        return None
