"""Both views of one sign-up over time, every 50 ms: what the backend answers and what the job's row says."""
import time
from dataclasses import dataclass

import httpx
from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class TwoViews:
    samples: list[tuple[float, str, str | None]]  # (seconds since the POST, the backend's state, the row's state)


def two_views(stack: Stack, http: httpx.Client, timeout: float = 8) -> TwoViews:
    caio_id = http.post("/users", json={"name": "Caio", "email": "caio@example.com"}).json()["task_id"]
    start, samples = time.monotonic(), []

    def sample() -> bool:
        backend = AsyncResult(caio_id, app=stack.app).state  # what GET /tasks/{id} reads
        row = (helpers.row(stack, caio_id) or {}).get("state")  # the row exists before the message
        samples.append((time.monotonic() - start, backend, row))
        return backend == "PENDING" and row == "done"  # the backend forgot; the row did not

    helpers.until(sample, timeout=timeout, step=0.05)
    return TwoViews(samples)
