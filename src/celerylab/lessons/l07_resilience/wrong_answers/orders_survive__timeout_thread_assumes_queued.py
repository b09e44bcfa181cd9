"""Runs the publish in a thread with a 4-second deadline and answers 202 when the deadline passes, assuming the send will eventually succeed, so an order whose publish later fails was answered 202 and never processed. Violates: "every order answered 202 is processed after the broker is back.". Blind review.

Always answers within 5 s and never a 500; in the checked outages the background publish usually
lands once the broker is back, but nothing guarantees it.
"""
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout

from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
_publisher = ThreadPoolExecutor(max_workers=8)
PATIENT = {"max_retries": 20, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}


def _publish(order_id: int) -> None:
    place_order.apply_async((order_id,), ignore_result=True, retry=True, retry_policy=PATIENT)


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    future = _publisher.submit(_publish, order_id)
    try:
        future.result(timeout=4)
    except FutureTimeout:
        return {"order": order_id, "queued": True}   # still trying in the background: good enough
    except OperationalError:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
