"""Catches OperationalError with a publish retry policy sized for the ~2 s outage but keeps the result (no ignore_result), so .delay() can stay stuck in the Redis backend's reconnect loop for as long as the broker is down (up to ~19 s) before answering. Violates: "never an error 500, never a wait longer than 5 s". Blind review."""
from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()

# ~3.5 s of tries: enough for a restart of Redis, short of the client's 5 s
POLICY = {"max_retries": 7, "interval_start": 0.5, "interval_step": 0, "interval_max": 0.5}


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        result = place_order.apply_async((order_id,), retry=True, retry_policy=POLICY)
    except OperationalError:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True, "task_id": result.id}
