"""A worker started here without -A reads this module (Celery's default loader), as Celery's eventlet example does."""
broker_url = "redis://localhost:6379/0"
imports = ("wd_tasks",)
task_time_limit = 30
task_soft_time_limit = 25
result_expiress = 3600
