"""On a failed publish it keeps the order in an in-process list, answers 202 and lets a thread resend it later, so the orders buffered when the API process is restarted during the outage are lost. Violates: "every order answered 202 is processed after the broker is back". Blind review."""
import threading
import time
from collections import deque

from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
_outbox: deque[int] = deque()  # orders accepted while the broker was away
_lock = threading.Lock()

FAST = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}


def _publish(order_id: int) -> None:
    place_order.apply_async((order_id,), ignore_result=True, retry=True, retry_policy=FAST)


def _drain() -> None:
    while True:
        time.sleep(0.5)
        with _lock:
            pending = list(_outbox)
            _outbox.clear()
        for order_id in pending:
            try:
                _publish(order_id)
            except OperationalError:
                with _lock:
                    _outbox.append(order_id)


threading.Thread(target=_drain, daemon=True).start()


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        _publish(order_id)
    except OperationalError:
        with _lock:
            _outbox.append(order_id)  # accepted: the background thread will queue it when Redis is back
    return {"order": order_id, "queued": True}
