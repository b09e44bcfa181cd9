"""CL308: the notes' except MaxRetriesExceededError around retry(exc=...)."""
import logging

from celery.exceptions import MaxRetriesExceededError

from audit_apps.base import make_app

app = make_app("cl308")
logger = logging.getLogger(__name__)


@app.task(name="cl308.notes_manual_retry", bind=True, max_retries=2)
def notes_manual_retry(self):
    try:
        raise ConnectionError("provider down")
    except ConnectionError as exc:
        try:
            raise self.retry(exc=exc, countdown=1)
        except MaxRetriesExceededError:
            logger.error("retries exhausted")
            raise
