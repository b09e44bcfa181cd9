"""Avoids the 503 by retrying the publish without limit: every request during a long outage hangs until Redis is back. Violates: "never an error 500, never a wait longer than 5 s;". Blind review."""
from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
POLICY = {"max_retries": None, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        place_order.apply_async((order_id,), ignore_result=True, retry=True, retry_policy=POLICY)
    except OperationalError:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
