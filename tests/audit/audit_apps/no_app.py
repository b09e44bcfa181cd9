"""Load error: a module with no Celery app in it."""
VALUE = 1
