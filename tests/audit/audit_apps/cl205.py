"""CL205: an except Exception that swallows SoftTimeLimitExceeded around the task's work (and three that do not: one
handles it first, one re-raises, one holds only a lookup at the task's start)."""
from celery.exceptions import SoftTimeLimitExceeded

from audit_apps.base import make_app

app = make_app("cl205")


@app.task(name="cl205.export", soft_time_limit=10, time_limit=15)
def export(rows: int):
    try:
        return write_rows(rows)
    except Exception:          # swallows SoftTimeLimitExceeded: the cleanup never happens, the hard limit kills
        return None


@app.task(name="cl205.careful", soft_time_limit=10, time_limit=15)
def careful(rows: int):
    try:
        return write_rows(rows)
    except SoftTimeLimitExceeded:
        raise
    except Exception:
        return None


@app.task(name="cl205.reraises", soft_time_limit=10, time_limit=15)
def reraises(rows: int):
    try:
        return write_rows(rows)
    except Exception:
        raise


@app.task(name="cl205.looked_up", soft_time_limit=10, time_limit=15)
def looked_up(report_id: int):
    try:                       # a lookup at the start: a soft limit lands here only by a fluke of timing
        report = Report.objects.get(pk=report_id)
        report.status = "running"
        report.save()
    except BaseException:
        return None
    return write_rows(report.rows)


@app.task(name="cl205.loops", soft_time_limit=10, time_limit=15)
def loops(report_id: int):
    total = 0
    try:                       # queries only, but in a loop: this is the task's work
        for row in Report.objects.filter(report=report_id):
            row.save()
            total += 1
    except Exception:
        pass
    return total


def write_rows(rows: int) -> int:
    return rows * 2


class Report:
    """Stands in for a Django model: `objects` is its manager."""

    objects = None
    rows = 0
    status = ""

    def save(self):
        return None
