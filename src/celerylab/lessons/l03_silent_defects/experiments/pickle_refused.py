"""A producer that sends pickle to a worker that accepts only json (Celery's default accept_content)."""
from celerylab.lessons.l03_silent_defects import helpers, tasks
from celerylab.lessons.l03_silent_defects.experiments.envelope_spoof import Dropped
from celerylab.stack import Stack


def pickle_refused(stack: Stack, worker) -> Dropped:
    offset = worker.log_offset()
    result = tasks.describe.apply_async(({1, 2},), serializer="pickle")  # pickle encodes a set
    logged = helpers.log_after(worker, r"Refusing to deserialize", offset)
    return Dropped(logged, result.state, helpers.where_is(stack, result.id))
