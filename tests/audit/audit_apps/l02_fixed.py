"""Lesson 02's fix: a visibility timeout above the longest limit and countdown, prefetch 1, lost children requeued."""
from celery.exceptions import SoftTimeLimitExceeded

from audit_apps.base import make_app

app = make_app("l02f", task_acks_late=True, task_reject_on_worker_lost=True,
               broker_transport_options={"visibility_timeout": 4 * 3600})


@app.task(name="l02.export", time_limit=7200, soft_time_limit=7000)
def export():
    """Cleans up at the soft limit, before the hard one."""
    try:
        return write_rows()
    except SoftTimeLimitExceeded:
        remove_partial_file()
        raise


def write_rows():
    return 0


def remove_partial_file():
    return None


@app.task(name="l02.remind", bind=True, default_retry_delay=2 * 3600)
def remind(self):
    try:
        raise ConnectionError("smtp down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)
