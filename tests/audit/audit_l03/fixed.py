"""Lesson 03's fix: retry defaults on a base class, every scheduled module included, ids as arguments."""
from celery import Task

from audit_apps.base import make_app


class Defaults(Task):
    max_retries = 3
    default_retry_delay = 60


app = make_app("l03f", include=["audit_l03.shop.emails", "audit_l03.shop.scheduled"],
               app_options={"task_cls": Defaults},
               beat_schedule={"backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",),
                                                   "options": {"expires": 3000}}})


@app.task(name="l03.describe_user")
def describe_user(user_id: int) -> str:
    return str(user_id)
