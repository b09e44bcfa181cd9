"""What AsyncResult.exists() (Celery 5.7) tells apart: a stored result from no key, nothing more."""
import uuid
from dataclasses import dataclass

from celery import Celery
from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class ExistsCheck:
    states: dict[str, str]          # stored, queued, expired, invented -> the state a fresh AsyncResult reads
    exists: dict[str, bool] | str   # -> AsyncResult.exists(), or the error of a release without it


def exists_check(stack: Stack) -> ExistsCheck:
    short = Celery("short", set_as_current=False)  # the stack's settings, results kept 1 s
    short.conf.update(stack.app.conf.table(with_defaults=False), result_expires=1)
    stored, expired, invented = str(uuid.uuid4()), str(uuid.uuid4()), str(uuid.uuid4())
    short.backend.mark_as_done(expired, 42)
    stack.app.backend.mark_as_done(stored, 42)
    queued = stack.app.send_task("l04.double", (1,), queue="nobody")  # no worker consumes this queue
    redis = helpers.redis_client(stack)
    helpers.until(lambda: not redis.exists(short.backend.get_key_for_task(expired)), timeout=3)
    short.close()
    ids = {"stored": stored, "queued": queued.id, "expired": expired, "invented": invented}
    exists: dict[str, bool] | str
    try:
        exists = {name: AsyncResult(task_id, app=stack.app).exists() for name, task_id in ids.items()}
    except AttributeError as error:  # a release without AsyncResult.exists()
        exists = type(error).__name__
    return ExistsCheck({name: AsyncResult(task_id, app=stack.app).state for name, task_id in ids.items()}, exists)
