"""A task that declares no retry option, which the retry-defaults check loads onto the learner's app (worker --include)."""
from __future__ import annotations

from celery import shared_task


@shared_task(bind=True, name="ex.sync_stock")
def sync_stock(self, item_id):
    try:
        raise ConnectionError("stock API down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)
