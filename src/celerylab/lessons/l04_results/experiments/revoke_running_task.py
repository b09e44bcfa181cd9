"""A 3 s task revoked without terminate while it runs: the states a fresh AsyncResult reads until SUCCESS."""
from dataclasses import dataclass

from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class RevokeRunningTask:
    active: bool       # the worker reported it running before the revoke
    states: list[str]  # each different state read, every 20 ms, until SUCCESS


def revoke_running_task(stack: Stack, worker, seconds: float = 3.0) -> RevokeRunningTask:
    running = stack.app.send_task("l04.slow", (seconds,))
    active = helpers.wait_active(stack, worker, running.id)  # inspect().active() lists it
    stack.app.control.revoke(running.id)                     # no terminate: to every worker of the stack
    states = helpers.states_seen(lambda: AsyncResult(running.id, app=stack.app).state,
                                 lambda state: state == "SUCCESS")
    return RevokeRunningTask(active, states)
