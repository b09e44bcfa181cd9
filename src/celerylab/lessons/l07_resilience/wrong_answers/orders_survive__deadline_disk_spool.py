"""Answers within 4 s, but an order that missed the deadline goes to a local spool file and is answered 202 while it is not in the broker's queue; when the API's machine goes away the order is lost. Violates: "**202** (order already in the broker's queue when the answer leaves)". Blind review."""
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from fastapi import FastAPI, Response
from kombu.exceptions import OperationalError

from celerylab.lessons.l07_resilience.tasks import app, place_order  # noqa: F401 (the worker loads `app`)

api = FastAPI()
_pool = ThreadPoolExecutor(max_workers=8)
_POLICY = {"max_retries": 10, "interval_start": 0.2, "interval_step": 0.2, "interval_max": 0.5}


def _publish_within(order_id: int, seconds: float) -> bool:
    """True if the order reached the broker within `seconds` (the publish thread may go on after that)."""
    try:
        _pool.submit(place_order.apply_async, (order_id,), retry=True, retry_policy=_POLICY).result(timeout=seconds)
        return True
    except Exception:
        return False

SPOOL = os.path.abspath("orders.spool")
_lock = threading.Lock()


def _flush() -> None:
    while True:
        time.sleep(0.5)
        with _lock:
            if not os.path.exists(SPOOL):
                continue
            with open(SPOOL) as f:
                waiting = [int(line) for line in f if line.strip()]
        left = []
        for order_id in waiting:
            if left or not _publish_within(order_id, 2.0):
                left.append(order_id)
        with _lock:
            with open(SPOOL) as f:
                now = [int(line) for line in f if line.strip()]
            left += now[len(waiting):]
            with open(SPOOL, "w") as f:
                f.writelines(f"{o}\n" for o in left)


threading.Thread(target=_flush, daemon=True).start()


@api.post("/orders/{order_id}", status_code=202)
def create_order(order_id: int, response: Response) -> dict:
    if not _publish_within(order_id, 4.0):
        with _lock:
            with open(SPOOL, "a") as f:
                f.write(f"{order_id}\n")
                f.flush()
                os.fsync(f.fileno())
    return {"order": order_id, "queued": True}
