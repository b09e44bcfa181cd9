"""A celeryconfig module, as config_from_object reads it (imports and helpers in it are not settings)."""
import os
from datetime import timedelta

broker_url = os.environ.get("AUDIT_BROKER_URL", "redis://localhost:6379/0")
result_backend = "redis://localhost:6379/1"
task_time_limit = 30
task_soft_time_limit = 25
worker_prefetch_multiplier = 1
result_expires = timedelta(hours=1)
timezone = "UTC"
task_acks_lat = True   # the typo


def helper():
    return 1
