"""Two tasks on one base class that holds `retry_kwargs`: does a backoff retry of one change the other's wait?"""
from dataclasses import dataclass

import celery
from celery import Celery, Task, signals


@dataclass
class SharedRetryKwargs:
    release: str                  # the Celery release measured
    states: list[str]             # backs_off, then plain
    backs_off_waits: list[int]    # the countdown of each retry (s)
    plain_waits: list[int]
    retry_kwargs_after: dict      # the base class's dict, once both ran


def shared_retry_kwargs() -> SharedRetryKwargs:
    app = Celery("l01-shared-retry-kwargs", set_as_current=False)

    class Shared(Task):
        retry_kwargs: dict = {}  # one dict, inherited by both tasks

    @app.task(name="l01.shared.backs_off", base=Shared, bind=True, autoretry_for=(ConnectionError,),
              retry_backoff=True, retry_jitter=False, max_retries=1, shared=False)
    def backs_off(self):
        raise ConnectionError("down")

    @app.task(name="l01.shared.plain", base=Shared, bind=True, autoretry_for=(ConnectionError,), max_retries=1,
              shared=False)
    def plain(self):
        raise ConnectionError("down")

    waits: dict[str, list[int]] = {"l01.shared.backs_off": [], "l01.shared.plain": []}

    def retried(sender=None, reason=None, **_):
        if sender is not None and sender.name in waits:
            waits[sender.name].append(reason.when)  # the countdown this retry asked for

    signals.task_retry.connect(retried, weak=False)
    try:
        states = [backs_off.apply().state, plain.apply().state]  # run here, in this process, retries included
    finally:
        signals.task_retry.disconnect(retried)
    return SharedRetryKwargs(celery.__version__, states, waits["l01.shared.backs_off"], waits["l01.shared.plain"],
                             dict(Shared.retry_kwargs))
