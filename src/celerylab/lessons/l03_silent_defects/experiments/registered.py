"""What the lesson's app includes and schedules, and what its running worker registered (inspect registered)."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import tasks
from celerylab.stack import Stack


@dataclass
class Registered:
    include: list[str]             # the modules the worker imports when it starts
    beat_schedule: dict[str, str]  # entry -> the task it sends
    registered: list[str]          # the tasks the worker knows


def registered(stack: Stack, worker) -> Registered:
    inspect = stack.app.control.inspect(destination=[worker.hostname], timeout=1)
    return Registered(list(tasks.app.conf.include),
                      {entry: spec["task"] for entry, spec in tasks.app.conf.beat_schedule.items()},
                      inspect.registered()[worker.hostname])
