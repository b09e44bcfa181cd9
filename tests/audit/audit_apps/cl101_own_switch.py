"""CL101 under namespace CELERY: the project's own CELERY_ALERTS_ENABLED is read by its code (not Celery's to know);
the misspelled CELERY_TASK_ACKS_LAT is read by nobody and stays flagged."""
from celery import Celery

import audit_apps.own_switch_settings as settings

app = Celery("cl101o", set_as_current=False)
app.config_from_object("audit_apps.own_switch_settings", namespace="CELERY")


@app.task(name="cl101o.alert")
def alert():
    return 1 if settings.CELERY_ALERTS_ENABLED else 0
