"""An acks_late + reject_on_worker_lost task whose pool child dies after SUCCESS is stored: run again or not."""
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks
from celerylab.stack import Stack

HANDLED = r"succeeded before the worker was lost|Task handler raised error: WorkerLostError"


@dataclass
class LostAfterSuccess:
    logged: str              # the worker's log line on the lost child
    starts: list[dict]       # each start: at, redelivered, retries
    state: str


def lost_after_success(lab: Stack) -> LostAfterSuccess:
    worker = helpers.worker("lost", task_acks_late=True, task_reject_on_worker_lost=True,
                            broker_transport_options=helpers.lab_transport(visibility_timeout=10))
    with helpers.experiment(lab, worker) as s:
        offset = s.workers[0].log_offset()
        result = tasks.exit_after_success.apply_async(("lost-after",), queue="lost")  # its child exits on SUCCESS
        logged = s.workers[0].wait_for_log(HANDLED, timeout=10, since=offset)
        starts = runs.wait(s, "lost-after", count=2, timeout=2)  # a second run, if the message came back
        return LostAfterSuccess(logged[0], starts, result.state)
