"""Clean: every setting known, tasks named and limited, results expiring, the schedule in a zone, with expiry."""
from celery.schedules import crontab

from audit_apps.base import make_app

app = make_app("clean", task_routes={"clean.*": {"queue": "celery"}},
               beat_schedule={"nightly": {"task": "clean.report", "schedule": crontab(hour=4, minute=0), "args": (1,),
                                          "options": {"expires": 3600}}})


@app.task(name="clean.report", autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def report(user_id: int) -> dict:
    return {"user": user_id}
