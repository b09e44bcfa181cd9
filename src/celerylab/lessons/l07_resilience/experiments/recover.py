"""The drained worker's outage, then what a process manager does (start it again) until every order has run."""
import time
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.lessons.l07_resilience.experiments.outage import outage
from celerylab.stack import Stack


@dataclass
class Recovered:
    died: bool
    orders: int
    all_ran: bool
    runs: int                     # rows in `runs` for those orders: one per run
    ran_twice: int
    all_ran_after: float | None   # seconds from the restart until every order had run


def recover(stack: Stack, orders: int = 5, seconds: float = 1.0, downtime: float = 2.0,
            timeout: float = 60.0) -> Recovered:
    run = outage(stack, keep_data=True, orders=orders, seconds=seconds, downtime=downtime)
    started, died = time.monotonic(), not stack.workers[0].alive
    for worker in stack.workers:  # systemd's Restart=always, Kubernetes' restartPolicy: start a dead worker again
        if not worker.alive:
            worker.restart()
    sent = set(run.ids)
    everything = helpers.until(lambda: sent <= set(helpers.runs(stack)), timeout=timeout, step=0.25)
    runs = [task_id for task_id in helpers.runs(stack) if task_id in sent]
    return Recovered(died, orders, bool(everything), len(runs), sum(1 for task_id in sent if runs.count(task_id) > 1),
                     round(time.monotonic() - started, 1) if everything else None)
