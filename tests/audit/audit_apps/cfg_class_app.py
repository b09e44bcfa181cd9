"""Settings from config_from_object(a class): result_expires=None is seen."""
from celery import Celery


class Config:
    broker_url = "redis://localhost:6379/0"
    result_backend = "redis://localhost:6379/1"
    task_time_limit = 30
    task_soft_time_limit = 25
    worker_prefetch_multiplier = 1
    result_expires = None   # never expire


app = Celery("cfgcls", set_as_current=False)
app.config_from_object(Config)


@app.task(name="cfgcls.work")
def work():
    return 1
