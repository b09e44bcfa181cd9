"""Settings from config_from_object(a module name): the typo in it is seen."""
from celery import Celery

app = Celery("cfgmod", set_as_current=False)
app.config_from_object("audit_apps.cfg_settings")


@app.task(name="cfgmod.work")
def work():
    return 1
