"""The app a web project's views send to: one declared queue and no result backend."""
from kombu import Queue

from audit_apps.base import make_app

app = make_app("scanned", drop=("result_backend",), task_queues=[Queue("celery")])


@app.task(name="scanned.notify")
def notify(user_id):
    return user_id
