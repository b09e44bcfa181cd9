"""Settings from a module with Celery 3's uppercase names, one misspelled."""
from celery import Celery

app = Celery("cfgold", set_as_current=False)
app.config_from_object("audit_apps.old_settings")


@app.task(name="cfgold.work")
def work():
    return 1
