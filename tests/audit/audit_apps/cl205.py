"""CL205: an except Exception that swallows SoftTimeLimitExceeded (and two that do not)."""
from celery.exceptions import SoftTimeLimitExceeded

from audit_apps.base import make_app

app = make_app("cl205")


@app.task(name="cl205.export", soft_time_limit=10, time_limit=15)
def export(rows: int):
    try:
        return rows * 2
    except Exception:          # swallows SoftTimeLimitExceeded: the cleanup never happens, the hard limit kills
        return None


@app.task(name="cl205.careful", soft_time_limit=10, time_limit=15)
def careful(rows: int):
    try:
        return rows * 2
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        return None


@app.task(name="cl205.reraises", soft_time_limit=10, time_limit=15)
def reraises(rows: int):
    try:
        return rows * 2
    except Exception:
        raise
