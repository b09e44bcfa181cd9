"""SIGTERM sent to a worker's whole process group (kill -- -PGID), with acks_late, with and without the recipe."""
import signal
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks, views
from celerylab.stack import Stack


@dataclass
class GroupSigterm:
    finished: bool     # the task recorded its end
    requeued: int      # messages back in the worker's Redis queue
    state: str         # the result's state
    outcome: str       # the state, with the exception's class when it failed
    error: str         # str() of the stored exception ("" when none)


def group_sigterm(lab: Stack, seconds: float = 3) -> tuple[dict[str, GroupSigterm], int]:
    """Each worker's record, and the messages left unacknowledged in Redis."""
    vt10 = helpers.lab_transport(visibility_timeout=10)
    group = {
        "group_late": helpers.worker("late", task_acks_late=True, broker_transport_options=vt10),
        "group_recipe": helpers.worker("recipe", task_acks_late=True, worker_soft_shutdown_timeout=1,
                                       broker_transport_options=vt10, env={"REMAP_SIGTERM": "SIGQUIT"}),
    }
    with helpers.experiment(lab, *group.values()) as s:
        workers = dict(zip(group, s.workers))
        results = {name: tasks.work.apply_async((name, seconds), queue=spec.queues[0]) for name, spec in group.items()}
        for name in group:
            runs.running_for(s, name, 0.5)
        helpers.in_parallel({name: (lambda worker=worker: worker.kill(signal.SIGTERM, group=True))  # kill -- -PGID
                             for name, worker in workers.items()})
        found = {name: GroupSigterm(bool(runs.events(s, name, "end")), runs.queued(s, spec.queues[0]),
                                    results[name].state, views.outcome(results[name]), str(results[name].result or ""))
                 for name, spec in group.items()}
        return found, runs.unacked(s)
