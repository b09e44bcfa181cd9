"""Warm, cold and soft shutdowns of workers in the middle of a task (or idle): what becomes of the task."""
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks, views
from celerylab.stack import Stack

REMAP = {"REMAP_SIGTERM": "SIGQUIT"}  # SIGTERM then asks for the cold shutdown, after the soft wait


@dataclass
class Shutdown:
    task_s: float | None    # seconds of the task the worker was running (None: idle)
    finished: bool | None   # the task recorded its end
    exit_after: float       # seconds from the signal until the worker had exited
    soft_wait: bool         # the worker logged "Initiating Soft Shutdown"
    requeued: int           # messages back in the worker's Redis queue
    state: str | None       # the result's state (None: no task)
    outcome: str | None     # the state, with the exception's class when it failed or is a retry
    restored_in_log: bool   # the worker logged "Restoring 1 unacknowledged message(s)"


def shutdowns(lab: Stack) -> dict[str, Shutdown]:
    vt10 = helpers.lab_transport(visibility_timeout=10)
    specs = {  # name (and queue): (worker, seconds of its task; None: no task)
        "warm": (helpers.worker("warm", broker_transport_options=vt10), 1.5),
        "cold": (helpers.worker("cold", broker_transport_options=vt10), 3),
        "cold_late": (helpers.worker("cold_late", task_acks_late=True, broker_transport_options=vt10), 3),
        "soft": (helpers.worker("soft", task_acks_late=True, worker_soft_shutdown_timeout=1,
                                broker_transport_options=vt10, env=REMAP), 3),
        "short": (helpers.worker("short", task_acks_late=True, worker_soft_shutdown_timeout=2,
                                 broker_transport_options=vt10, env=REMAP), 0.5),
        "idle": (helpers.worker("idle", task_acks_late=True, worker_soft_shutdown_timeout=2,
                                broker_transport_options=vt10, env=REMAP), None),
    }
    with helpers.experiment(lab, *[spec for spec, _ in specs.values()]) as s:
        workers = dict(zip(specs, s.workers))
        results = {name: tasks.work.apply_async((name, seconds), queue=name)
                   for name, (_, seconds) in specs.items() if seconds is not None}
        for name in results:
            runs.wait(s, name)
        cold = {name: name.startswith("cold") for name in specs}  # SIGQUIT; the others get SIGTERM
        exits = helpers.in_parallel({  # each call returns once its worker has exited
            name: (lambda worker=worker, name=name: worker.shutdown(cold=cold[name])) for name, worker in workers.items()})
        return {name: Shutdown(seconds, None if seconds is None else bool(runs.events(s, name, "end")),
                               exits[name][0], "Initiating Soft Shutdown" in workers[name].logs,
                               runs.queued(s, name), results[name].state if name in results else None,
                               views.outcome(results[name]) if name in results else None,
                               "Restoring 1 unacknowledged message(s)" in workers[name].logs)
                for name, (_, seconds) in specs.items()}
