"""Lesson 03's incident: misspelled retry settings, a scheduled module left out of include, a non-JSON argument."""
from audit_apps.base import make_app


class User:
    def __init__(self, id):
        self.id = id


app = make_app("l03", include=["audit_l03.shop.emails"], beat_schedule={
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",),
                         "options": {"expires": 3000}},
})
app.conf.update(task_max_retries=3, task_default_retry_delay=60)


@app.task(name="l03.describe_user")
def describe_user(user: User) -> str:
    """.delay(User(5)) raises EncodeError in the caller."""
    return str(user.id)
