"""CL111: config_from_object(silent=True) of a module that does not exist."""
from audit_apps.base import make_app

app = make_app("cl111")
app.config_from_object("audit_apps.celeryconfg", silent=True)   # the module is celeryconfig: a typo


@app.task(name="cl111.work")
def work():
    return 1
