"""The incident: a result whose TTL ran out reads PENDING, as an id nobody sent; a kept AsyncResult does not."""
import time
import uuid
from dataclasses import dataclass

import httpx
from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class ExpiredResult:
    task_id: str
    invented_id: str
    state: str                # the kept object's state, right after SUCCESS
    ttl_ms: int               # the key's PTTL then
    pending_after: float      # seconds from SUCCESS to the route's next PENDING
    pending_after_ttl: bool   # that PENDING came only once the key's own TTL had run out
    endpoint_now: dict        # GET /tasks/{id} then
    key_exists: bool
    kept_object: tuple        # (state, result) of the object read once SUCCESS
    fresh_object: str         # the state a new AsyncResult reads
    invented_endpoint: str    # GET /tasks/{invented id}
    get_invented: str         # what AsyncResult(invented).get(timeout=1) raised


def expired_result(stack: Stack, http: httpx.Client) -> ExpiredResult:
    redis = helpers.redis_client(stack)
    welcome_id = http.post("/users", json={"name": "Bia", "email": "bia@example.com"}).json()["task_id"]
    helpers.until(lambda: http.get(f"/tasks/{welcome_id}").json()["status"] == "SUCCESS", timeout=5)
    done_at = time.monotonic()
    key = stack.app.backend.get_key_for_task(welcome_id)  # <namespace>celery-task-meta-<id>
    ttl_ms = redis.pttl(key)
    expires_at = time.monotonic() + ttl_ms / 1000  # Redis answered before now: the key lives at least this long
    kept = AsyncResult(welcome_id, app=stack.app)
    state = kept.state
    helpers.until(lambda: http.get(f"/tasks/{welcome_id}").json()["status"] == "PENDING",
                  timeout=helpers.RESULT_EXPIRES + 10)
    pending_at = time.monotonic()
    invented = str(uuid.uuid4())
    try:
        AsyncResult(invented, app=stack.app).get(timeout=1)
        raised = "nothing"
    except Exception as error:  # noqa: BLE001 - its class is what the page shows
        raised = f"{type(error).__module__}.{type(error).__name__}"
    return ExpiredResult(welcome_id, invented, state, ttl_ms, pending_at - done_at, pending_at >= expires_at - 0.05,
                         http.get(f"/tasks/{welcome_id}").json(), bool(redis.exists(key)), (kept.state, kept.result),
                         AsyncResult(welcome_id, app=stack.app).state,
                         http.get(f"/tasks/{invented}").json()["status"], raised)
