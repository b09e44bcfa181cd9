"""Runs the default .delay() in a worker thread and answers 503 if it has not returned within 4.5 s, but the abandoned thread keeps retrying and publishes once the broker is back, so an order answered 503 (which the client sends again) is also queued: two orders. Violates: "**503** (order not queued, neither by this request nor later: the client tries again)". Blind review."""
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
_senders = ThreadPoolExecutor(max_workers=16)
DEADLINE = 4.5  # seconds: under the 5 s the client waits


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    future = _senders.submit(place_order.delay, order_id)
    try:
        future.result(timeout=DEADLINE)
    except FutureTimeout:
        response.status_code = 503  # still trying in the background; tell the client to come back
        return {"order": order_id, "queued": False}
    except (OperationalError, RuntimeError):
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
