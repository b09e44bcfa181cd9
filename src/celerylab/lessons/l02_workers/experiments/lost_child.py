"""A 3 s task whose pool child is killed mid-task, on four workers: default ack, acks_late, reject, retry."""
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks, views
from celerylab.stack import Stack

SETTINGS: dict[str, dict] = {  # each worker's own settings (Celery's defaults otherwise)
    "default": dict(),
    "acks_late": dict(task_acks_late=True),
    "reject": dict(task_acks_late=True, task_reject_on_worker_lost=True),
    "retry": dict(task_retry_on_worker_lost=True),
}


@dataclass
class LostChild:
    settings: str
    state: str            # the result's state
    outcome: str          # the state, with the exception's class when it failed
    error: str            # str() of the stored exception ("" when none)
    starts: list[dict]    # each start: at, redelivered, retries


def lost_child(lab: Stack, seconds: float = 3) -> dict[str, LostChild]:
    transport = helpers.lab_transport(visibility_timeout=10)
    with helpers.experiment(lab, *[helpers.worker(f"q{i}", broker_transport_options=transport, **settings)
                                   for i, settings in enumerate(SETTINGS.values())]) as s:
        results = {}
        for i, name in enumerate(SETTINGS):
            task = tasks.work_retry_lost if name == "retry" else tasks.work  # default_retry_delay=0
            results[name] = task.apply_async((name, seconds), queue=f"q{i}")
        for name, worker in zip(SETTINGS, s.workers):
            runs.running_for(s, name, 0.5)
            worker.kill_child()                # SIGKILL to the pool child only
        for result in results.values():
            result.get(timeout=15, propagate=False)
        return {name: LostChild(name, result.state, views.outcome(result), str(result.result or ""),
                                runs.events(s, name, "start"))
                for name, result in results.items()}
