"""Tasks of the check's that the retry-defaults check loads onto the learner's app (worker --include): three declare no retry option (under names of three forms), two Celery's own default delay (under two names), one its own max_retries, one both options on the base class it names, three values Celery reads as false (max_retries=0, default_retry_delay=0, max_retries=None); and a task of another app, retried in the worker's process."""
from __future__ import annotations

import uuid
from datetime import datetime, timezone

from celery import Task, shared_task
from celery.exceptions import Retry


def _retried(task, item_id):
    try:
        raise ConnectionError(f"{task.name}: API down ({item_id})")
    except ConnectionError as exc:
        raise task.retry(exc=exc) from None


@shared_task(bind=True, name="ex.sync_stock")
def sync_stock(self, item_id):
    _retried(self, item_id)


# graded only: tasks whose names no statement gives, and of other forms than "ex.<name>" (another prefix, none)
@shared_task(bind=True, name="billing.sync_prices")
def sync_prices(self, item_id):
    _retried(self, item_id)


@shared_task(bind=True, name="refresh_rates")
def refresh_rates(self, item_id):
    _retried(self, item_id)


@shared_task(bind=True, name="ex.audit_log", default_retry_delay=180)
def audit_log(self, item_id):  # declares its delay, and the value happens to be Celery's default
    _retried(self, item_id)


# graded only: the same declaration under a name no statement gives (an exception made for one name would miss it)
@shared_task(bind=True, name="reports.archive", default_retry_delay=180)
def archive(self, item_id):
    _retried(self, item_id)


class PartnerCall(Task):
    """A base class of a task's own: what it declares is declared by every task that names it in base=."""
    max_retries = 2
    default_retry_delay = 10


@shared_task(bind=True, name="ex.notify_partner", base=PartnerCall)
def notify_partner(self, item_id):  # declares its options on its base class, none in the decorator
    _retried(self, item_id)


@shared_task(bind=True, name="ex.import_feed", max_retries=5)
def import_feed(self, item_id):  # declares how many retries it gets, and not its delay
    _retried(self, item_id)


# declared values Celery reads as false, kept all the same: no retry at all, no limit, no wait
@shared_task(bind=True, name="ex.charge_once", max_retries=0)
def charge_once(self, item_id):  # fails on its first error: it declares no retry
    _retried(self, item_id)


@shared_task(bind=True, name="ex.ping_partner", default_retry_delay=0)
def ping_partner(self, item_id):  # retries at once
    _retried(self, item_id)


# graded only
@shared_task(bind=True, name="ex.poll_feed", max_retries=None)
def poll_feed(self, item_id):  # retries without a limit
    _retried(self, item_id)


@shared_task(name="l03.fresh_app_defaults")
def fresh_app_defaults() -> list:
    """[max_retries, default_retry_delay, seconds until its first, second and third retry, state after a fourth
    error] of a task on another Celery app in this process, retried here as a worker would retry it (its retry
    published to an in-memory broker, where the check reads the ETA): Celery's own defaults, attributes and behaviour,
    unless something outside the learner's app was changed. A wait is its default (180) when the ETA lies between
    180 s after the moment retry() was called and 180 s after it returned; else the seconds from the call."""
    from celery import Celery

    queue = f"l03-probe-{uuid.uuid4().hex}"
    probe = Celery("l03-probe", broker="memory://", set_as_current=False)
    probe.conf.task_default_queue = queue

    @probe.task(bind=True, name="probe.plain")
    def plain(self, item_id):
        return None

    observed: list = [plain.max_retries, plain.default_retry_delay]
    for retries in (0, 1, 2, 3):  # each of its three retries, then an error after three retries
        plain.push_request(id=uuid.uuid4().hex, retries=retries, args=(1,), kwargs={}, called_directly=False,
                           is_eager=False, delivery_info={})
        try:
            try:
                raise ConnectionError("probe: API down")
            except ConnectionError as exc:
                started = datetime.now(timezone.utc)
                plain.retry(exc=exc)
        except Retry:
            returned = datetime.now(timezone.utc)
            with probe.connection_for_read() as connection:
                message = connection.SimpleQueue(queue).get(timeout=1)
                eta = message.headers.get("eta")
                message.ack()
            observed.append(wait_of(datetime.fromisoformat(eta), started, returned, plain.default_retry_delay)
                            if eta else 0)
        except Exception:  # no retry: the error, or MaxRetriesExceededError
            observed.append("FAILURE")
        finally:
            plain.pop_request()
    return observed


def wait_of(eta: datetime, started: datetime, returned: datetime, expected: int) -> float:
    """`expected` when an ETA set between `started` and `returned` is `expected` seconds after its moment, to the
    thousandth; else the seconds from `started` to the ETA, to the hundredth."""
    if (eta - returned).total_seconds() - 0.001 <= expected <= (eta - started).total_seconds() + 0.001:
        return expected
    return round((eta - started).total_seconds(), 2)
