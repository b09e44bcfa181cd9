"""Settings from a Django-style module with namespace CELERY: only CELERY_ keys count."""
from celery import Celery

app = Celery("cfgns", set_as_current=False)
app.config_from_object("audit_apps.django_settings", namespace="CELERY")


@app.task(name="cfgns.work")
def work():
    return 1
