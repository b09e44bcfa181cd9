"""Settings from config_from_envvar: the module the variable names is read."""
from celery import Celery

app = Celery("cfgenv", set_as_current=False)
app.config_from_envvar("AUDIT_APP_CONFIG")


@app.task(name="cfgenv.work")
def work():
    return 1
