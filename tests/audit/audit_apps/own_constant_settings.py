"""Django-style settings of cl101_own_constant: a CELERY_ constant of the project's, used by name below."""
CELERY_BROKER_URL = "redis://localhost:6379/0"
CELERY_RESULT_BACKEND = "redis://localhost:6379/1"
CELERY_TASK_TIME_LIMIT = 30
CELERY_TASK_SOFT_TIME_LIMIT = 25
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LAT = True
CELERY_EXPORT_CHECK = 3600  # seconds
CELERY_BEAT_SCHEDULE = {"export": {"task": "cl101c.export", "schedule": CELERY_EXPORT_CHECK,
                                   "options": {"expires": 600}}}
