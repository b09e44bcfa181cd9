"""A Django-style settings module: Celery's keys carry the CELERY_ prefix, the rest belong to Django."""
DEBUG = True
INSTALLED_APPS = ["shop"]
SECRET_KEY = "not-a-celery-setting"
CELERY_BROKER_URL = "redis://localhost:6379/0"
CELERY_RESULT_BACKEND = "redis://localhost:6379/1"
CELERY_TASK_TIME_LIMIT = 30
CELERY_TASK_SOFT_TIME_LIMIT = 25
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LAT = True
CELERY_TASK_RESULT_EXPIRES = 3600  # an old name, which Celery still reads under the namespace
