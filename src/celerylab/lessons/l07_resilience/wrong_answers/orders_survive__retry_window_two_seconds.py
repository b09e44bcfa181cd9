"""Publishes with a retry policy that waits 2 s in all (helpers.retry_wait) and then gives up: an outage of about 2 s is ridden through only because the broker is back just before the last try, and one of 3 s answers 503. Violates: "with the broker down for 2 to 3 s, two requests made at the same time during the outage answer **202**, each within 5 s;". Blind review.

Sized to the hint's "covers a ~2 s outage" to the letter, with nothing to spare
for the broker's own start or a longer restart.
"""
from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
POLICY = {"max_retries": 5, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}  # 0 + 4 x 0.5 = 2 s


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    try:
        place_order.apply_async((order_id,), ignore_result=True, retry_policy=POLICY)
    except OperationalError:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
