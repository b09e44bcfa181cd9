"""Two workers killed by SIGKILL mid-task, one with the default early ack, one with acks_late, then restarted."""
import time
from dataclasses import dataclass

from celerylab.lessons.l02_workers import helpers, runs, tasks
from celerylab.stack import Stack


@dataclass
class KilledWorkers:
    command_line: str          # how the acks_late worker was started
    unacked_after_kill: int    # the `unacked` hash kombu keeps in Redis, right after the kill
    early_runs: int
    early_state: str
    late_starts: list[dict]    # each start of the acks_late task: at, redelivered, retries
    late_result: str           # what late.get() returned, or the class of what it raised
    late_state: str
    started: float             # when the acks_late task first started (time.time())
    restarting: float          # when the restart of both workers began
    ready: float               # when both workers were ready again


def killed_workers(lab: Stack, seconds: float = 2, visibility_timeout: float = 3) -> KilledWorkers:
    transport = helpers.lab_transport(visibility_timeout)  # a sweep every 0.5 s
    with helpers.experiment(lab,
                            helpers.worker("early", broker_transport_options=transport),
                            helpers.worker("late", task_acks_late=True, broker_transport_options=transport)) as s:
        early = tasks.work.apply_async(("early", seconds), queue="early")
        late = tasks.work.apply_async(("late", seconds), queue="late")
        started = runs.running_for(s, "late", seconds / 2)["at"]  # halfway through the task
        runs.running_for(s, "early", seconds / 2)
        for worker in s.workers:
            worker.kill()                      # SIGKILL: the parent and, with it, its pool child
        held = runs.unacked(s)
        restarting = time.time()
        helpers.restart_all(s.workers)         # the deploy starts the workers again
        ready = time.time()
        late_starts = runs.wait(s, "late", count=2, timeout=30)
        late_result = helpers.returned(late, timeout=30)
        return KilledWorkers(s.workers[1].command_line(), held, len(runs.events(s, "early", "start")), early.state,
                             late_starts, late_result, late.state, started, restarting, ready)
