"""Publishes with expires=15 "so stale orders do not pile up": an order answered 202 is silently dropped if no worker takes it within 15 s (a worker that died in the outage, an order reserved by a dead worker that comes back after the visibility_timeout). Violates: "every order answered 202 is processed after the broker is back, however long it waits in the queue". Blind review.
"""
from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
# retry publishing for ~4 s at most (0.25 s apart), then give up: 503, and nothing will publish it later
POLICY = {"max_retries": 16, "interval_start": 0, "interval_step": 0.25, "interval_max": 0.25}


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        # ignore_result: no subscription to the result backend (which would hold the request ~19 s)
        place_order.apply_async((order_id,), ignore_result=True, expires=15, retry=True, retry_policy=POLICY)
    except OperationalError:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
