"""A worker killed by SIGKILL mid-task, with default settings: what Redis still holds, how many times the task ran."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries import tasks_delivery as delivery
from celerylab.stack import Stack


@dataclass
class KilledWorker:
    broker_queue: int    # the task's messages still waiting in Redis after the kill
    broker_unacked: int  # the task's messages delivered and not acknowledged
    next_task: str       # what a task sent to the restarted worker returned
    runs: int            # how many times the killed task started (a row in `runs` each)
    state: str


def killed_worker(stack: Stack, seconds: int = 3) -> KilledWorker:
    killed = delivery.slow_step.delay(seconds)          # a 3 s task
    helpers.wait_runs(stack, killed.id)                 # it started: one row in `runs`
    stack.workers[0].kill(group=True)                   # SIGKILL the worker and its pool child process, mid-task
    left = helpers.broker_messages(stack, killed.id)    # what Redis still holds
    stack.workers[0].restart()
    after = delivery.slow_step.delay(0).get(timeout=10)  # the new worker is consuming
    return KilledWorker(left["queue"], left["unacked"], after, helpers.runs(stack, killed.id), killed.state)
