"""Answers 202 for an order the broker refused and keeps it in an in-process list that a background thread re-sends later, so the "queued" order lives only in the API process's memory and is lost if that process restarts or dies. Violates: "with the broker down for ~6.5 s, two requests made at the same time during the outage answer, each within 5 s, **202** (order already in the broker's queue when the answer leaves) or **503** (order not queued, neither by this request nor later: the client tries again) — never an error 500, never a wait longer than 5 s;". Blind review.

On the happy path every 202 is eventually processed, because this process lives through the outage;
the client was told "queued" for an order that exists nowhere but in a Python list.
"""
import threading
import time

from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()

_pending: list[int] = []          # orders waiting for the broker
_lock = threading.Lock()


def _flush_forever() -> None:
    while True:
        time.sleep(0.5)
        with _lock:
            waiting = list(_pending)
        for order_id in waiting:
            try:
                place_order.apply_async((order_id,), ignore_result=True)
            except OperationalError:
                break
            with _lock:
                _pending.remove(order_id)


threading.Thread(target=_flush_forever, daemon=True).start()


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        place_order.apply_async((order_id,), ignore_result=True)
    except OperationalError:
        with _lock:
            _pending.append(order_id)   # it will go out when the broker is back
    return {"order": order_id, "queued": True}
