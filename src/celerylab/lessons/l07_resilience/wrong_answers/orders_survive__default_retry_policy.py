"""Skips the result backend and turns the failure into a 503, with kombu’s default retry policy: it gives up in about a second, so a 2 s restart refuses orders. Violates: "with the broker down for 2 to 3 s, two requests made at the same time during the outage answer 202"."""
from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        place_order.apply_async((order_id,), ignore_result=True)
    except OperationalError:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
