"""An acks_late task killed by its 1 s time_limit, on a worker with task_acks_on_timeout=False (Celery 5.7)."""
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, tasks
from celerylab.stack import Stack


@dataclass
class TimeoutRequeue:
    deliveries: int   # how many times the worker logged the message as received
    state: str


def timeout_requeue(lab: Stack) -> TimeoutRequeue:
    worker = helpers.worker("timeout", task_acks_late=True, task_acks_on_timeout=False,
                            broker_transport_options=helpers.lab_transport(visibility_timeout=10))
    with helpers.experiment(lab, worker) as s:
        result = tasks.hard_limited.apply_async(("requeued-timeout", 1.5), queue="timeout")  # time_limit=1
        received = f"l02.hard_limited[{result.id}] received"  # logged once per delivery of the message
        helpers.wait_for(lambda: s.workers[0].logs.count(received) >= 2, timeout=4)
        return TimeoutRequeue(s.workers[0].logs.count(received), result.state)
