"""Publishes in a thread with unbounded retries and answers 503 once 4.5 s pass, but the thread goes on publishing while the API stays up, so an order answered 503 (which the client sends again) is queued and processed anyway. Violates: "**503** (order not queued, neither by this request nor later: the client tries again)". Blind review."""
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout

from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
_pool = ThreadPoolExecutor(max_workers=8)


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    future = _pool.submit(place_order.apply_async, (order_id,), retry=True,
                          retry_policy={"max_retries": None, "interval_start": 0.2, "interval_step": 0.2, "interval_max": 0.5})
    try:
        future.result(timeout=4.5)
    except FutureTimeout:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    except Exception:
        response.status_code = 503
        return {"order": order_id, "queued": False}
    return {"order": order_id, "queued": True}
