"""CL101 under namespace CELERY: CELERY_EXPORT_CHECK is the project's own constant, read by name in the settings module
that defines it (a Beat entry's schedule); the misspelled CELERY_TASK_ACKS_LAT is read by nobody and stays flagged."""
from celery import Celery

app = Celery("cl101c", set_as_current=False)
app.config_from_object("audit_apps.own_constant_settings", namespace="CELERY")


@app.task(name="cl101c.export")
def export():
    return 1
