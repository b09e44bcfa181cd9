"""Tasks of the check's that the retry-defaults check loads onto the learner's app (worker --include): three declare no retry option (under names of three forms), one Celery's own default delay, one its own max_retries, three values Celery reads as false (max_retries=0, default_retry_delay=0, max_retries=None)."""
from __future__ import annotations

from celery import shared_task


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
    """(max_retries, default_retry_delay) of a task on another Celery app in this process: Celery's own defaults
    unless something outside the learner's app was changed."""
    from celery import Celery

    probe = Celery("l03-probe", set_as_current=False)

    @probe.task(name="probe.plain")
    def plain():
        return None

    return [plain.max_retries, plain.default_retry_delay]
