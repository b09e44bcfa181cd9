"""How many reads of the backend (one Redis GET each) `status` and `get()` make for a finished task."""
from dataclasses import dataclass

from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class BackendReads:
    state: str             # what `.status` read
    status: int            # reads for `.status` on a fresh AsyncResult of a finished task
    get_after_status: int  # reads for `.get()` on that same object, after `.status`
    get_fresh: int         # reads for `.get()` on another fresh AsyncResult


def backend_reads(stack: Stack) -> BackendReads:
    done = stack.app.send_task("l04.double", (21,))
    helpers.until(lambda: AsyncResult(done.id, app=stack.app).state == "SUCCESS", timeout=5)
    route = AsyncResult(done.id, app=stack.app)  # what the route builds on every request
    with helpers.backend_reads(stack.app) as reads:
        state = route.status
        for_status = reads.call_count
        route.get(timeout=5)
        for_get = reads.call_count - for_status
        AsyncResult(done.id, app=stack.app).get(timeout=5)
        for_fresh_get = reads.call_count - for_status - for_get
    return BackendReads(state, for_status, for_get, for_fresh_get)
