"""The app: settings under namespace CELERY, its scheduler named by beat_scheduler (only Beat imports it)."""
from celery import Celery

app = Celery("pkgu", set_as_current=False)
app.config_from_object("audit_apps.pkg_unloaded.settings", namespace="CELERY")


@app.task(name="pkgu.work")
def work():
    return 1
