"""CL111: a settings module read with a namespace none of its keys carries."""
from celery import Celery

app = Celery("cl111e", set_as_current=False)
# The settings module read has no CELERY_ key at all: every setting stays at its default.
app.config_from_object("audit_apps.web_settings", namespace="CELERY")


@app.task(name="cl111e.work")
def work():
    return 1
