"""Retries the publish with no limit: a short restart is ridden through, a long outage holds the request. Violates: "never a wait longer than 5 s"."""
from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        place_order.apply_async((order_id,), ignore_result=True, retry_policy={
            "max_retries": None, "interval_start": 0, "interval_step": 0.1, "interval_max": 0.3})
    except OperationalError:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
