"""Producers (Celery apps of their own, already connected, like web processes) sending while the broker is down."""
import gc
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack

VARIANTS = {"delay()": {}, "ignore_result=True": {"ignore_result": True}}


@dataclass
class OutageSends:
    sends: dict[str, list[tuple[str, float]]]  # variant -> each send's outcome ("published" or what it raised), seconds
    worker_died: bool  # the stack's worker died in the outage (a process manager's part, `helpers.back`, started it)


def send(app, **options) -> tuple[str, float]:
    started = time.monotonic()
    try:
        app.send_task("l07.work", (0,), **options)
        outcome = "published"
    except Exception as error:  # noqa: BLE001 - what the API's view would get
        outcome = type(error).__name__
    return outcome, round(time.monotonic() - started, 1)


def outage_sends(stack: Stack, variants: dict = VARIANTS, back_after: float | None = 3.0,
                 calls: int = 2) -> OutageSends:
    webs = {name: helpers.producer_app(stack) for name in variants}
    for name, web in webs.items():
        web.send_task("l07.work", (0,), **variants[name])  # connected, like an API in use
    gc.collect()  # reclaims those results while Redis is up (the text says why)
    since = stack.workers[0].log_offset()
    stack.broker.stop(keep_data=True)  # the outage
    timer = None if back_after is None else threading.Timer(back_after, stack.broker.start)  # back after `back_after` s
    if timer is not None:
        timer.start()
    gc.disable()  # a forgotten AsyncResult reclaimed inside a send would add its own wait (the text says why)
    try:
        with ThreadPoolExecutor() as pool:
            sends = dict(zip(variants, pool.map(lambda name: [send(webs[name], **variants[name])
                                                              for _ in range(calls)], variants)))
    finally:
        gc.enable()
        if timer is None:
            stack.broker.start()
        else:
            timer.join()
    gc.collect()
    return OutageSends(sends, helpers.back(stack, since))  # back: the worker reconnected, or died and was started
