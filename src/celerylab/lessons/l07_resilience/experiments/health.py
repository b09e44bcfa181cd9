"""A worker that stops consuming its queue (cancel_consumer) and comes back (add_consumer): what ping and a canary say."""
from dataclasses import dataclass

from celery.exceptions import TimeoutError as ResultTimeout

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


@dataclass
class Health:
    rows: list[dict]  # each moment: whether the worker answered ping, whether the canary task was consumed


def healthy(app, hostname: str, timeout: float = 3.0, ping_timeout: float = 10.0) -> dict:
    # ping (control channel) and a canary task through the real queue, with a deadline
    # a broadcast published before the worker binds its control queue again is lost: ask again
    pong = helpers.until(lambda: app.control.ping(destination=[hostname], timeout=1), timeout=ping_timeout)
    try:
        canary = app.send_task("l07.echo", ("canary",), expires=timeout).get(timeout=timeout) == "canary"
    except ResultTimeout:
        canary = False
    return {"ping": bool(pong), "consumed": canary}


def health(stack: Stack) -> Health:
    app, hostname = stack.app, stack.workers[0].hostname
    rows = [{"moment": "normal", **healthy(app, hostname)}]
    app.control.cancel_consumer("celery", destination=[hostname], reply=True)  # the fault
    rows.append({"moment": "cancelled", **healthy(app, hostname)})
    app.control.add_consumer("celery", destination=[hostname], reply=True)     # the fix
    rows.append({"moment": "restored", **healthy(app, hostname)})
    return Health(rows)
