"""STARTED only with task_track_started: the same 1 s task on the stack's worker and on a worker that tracks it."""
from dataclasses import dataclass

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack, WorkerSpec


@dataclass
class TrackStarted:
    off: list[str]  # the states a fresh AsyncResult read every 20 ms, on the stack's worker
    on: list[str]   # the same, on a worker with task_track_started=True


def track_started(stack: Stack, seconds: float = 1.0) -> TrackStarted:
    plain = stack.app.send_task("l04.slow", (seconds,))
    tracked = stack.app.send_task("l04.slow", (seconds,), queue="tracked")  # no worker consumes it yet

    def start_tracked():  # runs once both tasks were read once: the tracked one is read queued first
        return stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("tracked",),
                                           settings={"task_track_started": True}))

    seen = helpers.watch_states(stack, {"plain": plain.id, "tracked": tracked.id}, timeout=60, start=start_tracked)
    return TrackStarted(seen["plain"], seen["tracked"])
