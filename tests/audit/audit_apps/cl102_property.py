"""`celery_backend`: a made-up name whose suffix is a Task property, not an option: CL101's closest match is the diagnosis."""
from audit_apps.base import make_app

app = make_app("cl102p", drop=("result_backend",))
app.conf.celery_backend = "redis://localhost:6379/1"


@app.task(name="cl102p.work")
def work():
    return 1
