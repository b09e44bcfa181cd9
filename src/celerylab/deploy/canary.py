"""The workers' health check (lesson 07): the node answers ping and a canary task through its own queue is consumed in time."""
from __future__ import annotations

import argparse
import sys

from celery.exceptions import TimeoutError as ResultTimeout

from celerylab.i18n import t  # the canary.* words: deploy/messages.yml (i18n.FAMILY_CATALOGS)

TASK = "celerylab.deploy.canary"
ANSWER = "canary"


def register_canary(app):
    """Register the health check's task on `app` (the compose app's, lesson 08's): answering it proves the worker
    consumes the queue the check sends it through."""
    @app.task(name=TASK)
    def canary() -> str:
        """The health check's task (`healthy` sends it): answering it proves the worker consumes."""
        return ANSWER

    return canary


def healthy(app, queue: str, node: str, timeout: float = 10.0, ping_timeout: float = 3.0) -> dict[str, bool]:
    """Ping the node (the control channel), then send a canary through `queue`, expiring, and wait for its answer."""
    pong = bool(app.control.ping(destination=[node], timeout=ping_timeout))
    try:
        consumed = app.send_task(TASK, queue=queue, expires=timeout).get(timeout=timeout) == ANSWER
    except ResultTimeout:
        consumed = False
    return {"ping": pong, "canary": consumed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m celerylab.deploy.canary", description=t("canary.description"))
    parser.add_argument("--queue", required=True, help=t("canary.opt.queue"))
    parser.add_argument("--node", required=True, help=t("canary.opt.node"))
    parser.add_argument("--timeout", type=float, default=10.0, help=t("canary.opt.timeout"))
    args = parser.parse_args(argv)
    from celerylab.deploy.app import app

    found = healthy(app, args.queue, args.node, timeout=args.timeout)
    print(t("canary.result", node=args.node, queue=args.queue, ping=found["ping"], canary=found["canary"]))
    return 0 if found["ping"] and found["canary"] else 1


if __name__ == "__main__":
    sys.exit(main())
