"""How result_expires becomes a Redis TTL: a SUCCESS stored as the worker stores it, under each value."""
import uuid
from dataclasses import dataclass

from celery import Celery
from celery.app.defaults import DEFAULTS

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack

VALUES = (DEFAULTS["result_expires"], 3, 2.7, 1.5, 0.5, 0, None)


@dataclass
class TtlValues:
    rows: list[dict]       # result_expires, the backend's `expires`, the key's TTL (s; -1: none)
    failure_ttls: dict     # SUCCESS / FAILURE -> TTL, under result_expires=3 and result_failure_expires=60


def probe(stack: Stack, **settings) -> Celery:
    """A client app with the stack's settings and `settings` on top (its backend is the worker's code)."""
    app = Celery("probe", set_as_current=False)
    app.conf.update(stack.app.conf.table(with_defaults=False), **settings)
    return app


def ttl_values(stack: Stack) -> TtlValues:
    redis, rows = helpers.redis_client(stack), []
    for value in VALUES:
        app = probe(stack, result_expires=value)
        task_id = str(uuid.uuid4())
        app.backend.mark_as_done(task_id, 42)  # what the worker calls when a task succeeds
        rows.append({"result_expires": value, "expires": app.backend.expires,
                     "ttl": helpers.ttl_seconds(redis, app.backend.get_key_for_task(task_id))})
        app.close()
    app = probe(stack, result_failure_expires=60)  # and the stack's result_expires=3
    done, failed = str(uuid.uuid4()), str(uuid.uuid4())
    app.backend.mark_as_done(done, 42)
    app.backend.mark_as_failure(failed, ValueError("refused address"))  # what the worker calls when a task raises
    failure_ttls = {state: helpers.ttl_seconds(redis, app.backend.get_key_for_task(task_id))
                    for state, task_id in (("SUCCESS", done), ("FAILURE", failed))}
    app.close()
    return TtlValues(rows, failure_ttls)
