"""Answers 202 at once and publishes in a FastAPI background task after the response, so an order whose publish later fails (or whose API process is restarted during the outage) was answered 202 but never reaches the queue. Violates: "every order answered 202 is processed after the broker is back". Blind review."""
from fastapi import BackgroundTasks, FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()


def _publish(order_id: int) -> None:
    try:
        place_order.apply_async((order_id,), ignore_result=True, retry=True,
                                retry_policy={"max_retries": 30, "interval_start": 0.5, "interval_step": 0.5,
                                              "interval_max": 1.0})
    except OperationalError:
        pass  # the client already has its 202; nothing else to do here


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response, background: BackgroundTasks) -> dict:
    background.add_task(_publish, order_id)  # never makes the client wait for the broker
    return {"order": order_id, "queued": True}
