"""A Django-style settings module holding the project's own CELERY_ switch beside Celery's keys (and one typo)."""
CELERY_BROKER_URL = "redis://localhost:6379/0"
CELERY_RESULT_BACKEND = "redis://localhost:6379/1"
CELERY_TASK_TIME_LIMIT = 30
CELERY_TASK_SOFT_TIME_LIMIT = 25
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_ALERTS_ENABLED = True
CELERY_TASK_ACKS_LAT = True
