"""Catches every exception and answers 202 anyway: an order that was never queued reads as accepted. Violates: "every order answered 202 is processed after the broker is back"."""
from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        place_order.apply_async((order_id,), ignore_result=True, retry_policy={
            "max_retries": 12, "interval_start": 0, "interval_step": 0.1, "interval_max": 0.3})  # ~3 s
    except Exception:
        pass
    return {"order": order_id, "queued": True}
