"""With task_track_started, a task that outlives result_expires without another write: STARTED expires too."""
from dataclasses import dataclass

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack, WorkerSpec


@dataclass
class StartedExpires:
    seconds: float      # how long the task runs
    states: list[str]   # the states a fresh AsyncResult read every 20 ms


def started_expires(stack: Stack) -> StartedExpires:
    seconds = helpers.RESULT_EXPIRES + 2.0  # longer than the TTL its STARTED gets
    result = stack.app.send_task("l04.slow", (seconds,), queue="tracked_long")  # no worker consumes it yet

    workers = []

    def start_tracked():
        workers.append(stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("tracked_long",),
                                                   settings={"task_track_started": True})))

    seen = helpers.watch_states(stack, {"long": result.id}, timeout=60, start=start_tracked)
    workers[0].terminate()  # the stack keeps the workers it had
    return StartedExpires(seconds, seen["long"])
