"""A worker started without -E, beside a Flower: whether Flower turns its task events on and sees the next task."""
from dataclasses import dataclass

from flower.events import Events

from celerylab.lessons.l06_architecture import helpers
from celerylab.stack import WorkerSpec


@dataclass
class FlowerEvents:
    enable_interval_ms: int  # how often Flower sends control.enable_events to every worker
    without_e: bool          # the worker's command line has no -E
    events_back_on: bool     # its log says "Events of group {task} enabled by remote"
    flower_saw_task: bool    # Flower's API knows the task sent next


def flower_events() -> FlowerEvents:
    with helpers.start(workers=[WorkerSpec(task_events=False)], flower=True) as probe:  # a worker without -E, Flower
        quiet = probe.workers[0]
        back = quiet.wait_for_log(r"Events of group \{task\} enabled by remote", timeout=15)  # Flower's request
        seen = helpers.flower_saw(probe, probe.app.send_task("l06.short", (0,)))
        return FlowerEvents(Events.events_enable_interval, " -E" not in quiet.command_line(), back is not None, seen)
