"""Celery 3 style: uppercase names, one of them misspelled."""
BROKER_URL = "redis://localhost:6379/0"
CELERY_RESULT_BACKEND = "redis://localhost:6379/1"
CELERYD_TASK_TIME_LIMIT = 30
CELERYD_TASK_SOFT_TIME_LIMIT = 25
CELERYD_PREFETCH_MULTIPLIER = 1
CELERY_ACKS_LAT = True
