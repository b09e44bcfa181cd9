"""Lesson 02's incident: acks_late tasks longer than Redis's visibility timeout, reminders with long countdowns."""
from audit_apps.base import make_app

app = make_app("l02", drop=("worker_prefetch_multiplier",), task_acks_late=True)


@app.task(name="l02.export", time_limit=7200, soft_time_limit=7000)
def export():
    """Two hours allowed; the visibility timeout is kombu's one hour: a second copy starts while it runs."""
    try:
        return write_rows()
    except Exception:      # also swallows SoftTimeLimitExceeded: no cleanup, the hard limit kills it
        return None


def write_rows():
    return 0


@app.task(name="l02.remind", bind=True, default_retry_delay=2 * 3600)
def remind(self):
    """Retried two hours later: the waiting message is duplicated at every sweep after the hour."""
    try:
        raise ConnectionError("smtp down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)
