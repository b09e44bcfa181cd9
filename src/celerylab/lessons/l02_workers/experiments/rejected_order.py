"""Three tasks, A, B and C, on an acks_late + reject_on_worker_lost worker whose pool child dies in the middle of A."""
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks
from celerylab.stack import Stack


@dataclass
class RejectedOrder:
    waiting_in_redis: int   # messages still in the Redis queue while A runs
    start_order: list[str]  # the keys in the order their runs started


def rejected_order(lab: Stack) -> RejectedOrder:
    worker = helpers.worker("order", task_acks_late=True, task_reject_on_worker_lost=True,
                            worker_prefetch_multiplier=1,  # B and C wait in Redis, not in the worker
                            broker_transport_options=helpers.lab_transport(visibility_timeout=10))
    with helpers.experiment(lab, worker) as s:
        for key in ("A", "B", "C"):
            tasks.work.apply_async((key, 1), queue="order")
        runs.running_for(s, "A", 0.3)
        waiting = runs.queued(s, "order")
        s.workers[0].kill_child()              # A is rejected with requeue=True
        runs.wait(s, "A", count=2, timeout=15)
        starts = sorted((entry["at"], key) for key in "ABC" for entry in runs.events(s, key, "start"))
        return RejectedOrder(waiting, [key for _, key in starts])
