"""A flat project: the app module and its task modules side by side in one folder, no package."""
from celery import Celery

app = Celery("flat", set_as_current=False, include=["flat_tasks"])
app.conf.update(broker_url="redis://localhost:6379/0", task_time_limit=30, task_soft_time_limit=25)
