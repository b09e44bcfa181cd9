"""CL101 on a Flask factory's settings: the broker URL passed to Celery(broker=...) is in use, and the project's own
switch is read by its code; a route table under the wrong name and a misspelled key stay flagged."""
from celery import Celery

from audit_apps.base import CLEAN

FLASK_CONFIG = {
    "CELERY_BROKER_URL": "redis://localhost:6379/0",
    "CELERY_SEND_REPORTS": True,
    "CELERY_TASK_ROUTES": {"cl101f.report": {"queue": "reports"}},
    "CELERY_TASK_ACKS_LAT": True,
}


def make_celery(config: dict) -> Celery:
    celery = Celery("cl101f", broker=config["CELERY_BROKER_URL"], set_as_current=False)
    celery.conf.update({key: value for key, value in CLEAN.items() if key != "broker_url"})
    celery.conf.update(config)
    return celery


app = make_celery(FLASK_CONFIG)


@app.task(name="cl101f.report")
def report():
    if FLASK_CONFIG.get("CELERY_SEND_REPORTS"):
        return 1
    return 0
