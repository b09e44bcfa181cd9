"""An acks_late worker killed and restarted under kombu's own sweep: does the message come back, and who brings it."""
import time
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks
from celerylab.stack import Stack


@dataclass
class DefaultSweep:
    runs_after_vt: int          # starts of the task 1 s after the visibility timeout ran out
    unacked_after_vt: int       # messages still in kombu's `unacked` hash then
    runs_after_new_worker: int  # starts once a new worker has started
    back_after_ready: float | None  # seconds from the new worker's start-up to the second run


def default_sweep(lab: Stack, visibility_timeout: float = 12) -> DefaultSweep:
    transport = helpers.lab_transport(visibility_timeout, sweep=None)  # kombu's own sweep
    late_worker = helpers.worker("late", task_acks_late=True, broker_transport_options=transport)
    with helpers.experiment(lab, late_worker) as s:
        tasks.work.apply_async(("sweep", 1), queue="late")
        delivered = runs.wait(s, "sweep")[0]["at"]
        s.workers[0].kill()
        s.workers[0].restart()                 # back before the visibility timeout runs out
        still_one = runs.wait(s, "sweep", count=2, timeout=delivered + visibility_timeout + 1 - time.time())
        held = runs.unacked(s)
        s.add_worker(late_worker)              # a new worker sweeps Redis as it starts
        ready = time.time()
        back = runs.wait(s, "sweep", count=2, timeout=5)
        return DefaultSweep(len(still_one), held, len(back), back[1]["at"] - ready if len(back) == 2 else None)
