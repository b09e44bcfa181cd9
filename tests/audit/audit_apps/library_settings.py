"""Settings read whole (no namespace): Celery's, a library's own, and two keys nobody reads."""
broker_url = "redis://localhost:6379/0"
result_backend = "redis://localhost:6379/1"
task_time_limit = 30
task_soft_time_limit = 25
worker_prefetch_multiplier = 1
timezone = "UTC"
CELERY_MAILER_BACKEND = "smtp"
CELERY_MAILER_CHUNK_SIZE = 20
CELERY_MAILER_CHUNK_SIZ = 20
result_expire = 60
