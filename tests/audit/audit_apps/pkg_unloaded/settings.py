"""Celery's keys, the project's own file for Beat's liveness probe, and a typo."""
CELERY_BROKER_URL = "redis://localhost:6379/0"
CELERY_RESULT_BACKEND = "redis://localhost:6379/1"
CELERY_TASK_TIME_LIMIT = 30
CELERY_TASK_SOFT_TIME_LIMIT = 25
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULER = "audit_apps.pkg_unloaded.schedulers:TouchingScheduler"
CELERY_BEAT_TOUCH_FILE = "/tmp/beat-alive"
CELERY_TASK_ACKS_LAT = True
