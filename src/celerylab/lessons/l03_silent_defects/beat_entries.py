"""A task of the check's, loaded onto the learner's worker (--include): the beat_schedule entries Beat can build, as Beat would send them."""
from __future__ import annotations

from celery import shared_task
from celery.beat import ScheduleEntry


@shared_task(bind=True, name="l03.beat_entries")
def beat_entries(self) -> list[dict]:
    """Each entry of the app's beat_schedule that Beat turns into a schedule: its task, interval, args, kwargs and options;
    an entry Beat cannot build (a schedule it does not understand) is left out, as Beat never sends it."""
    entries = []
    for name, spec in (self.app.conf.beat_schedule or {}).items():
        try:
            entry = ScheduleEntry(**dict(spec, name=name, app=self.app))
            entry.is_due()
        except Exception:  # noqa: BLE001 - whatever stops Beat from building the entry
            continue
        every = getattr(entry.schedule, "run_every", None)  # an interval; a crontab has none: its repr
        entries.append({"task": entry.task, "every": every.total_seconds() if every else repr(entry.schedule),
                        "args": list(entry.args or ()), "kwargs": dict(entry.kwargs or {}),
                        "options": dict(entry.options or {})})
    return entries
