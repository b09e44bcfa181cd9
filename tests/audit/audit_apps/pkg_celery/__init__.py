"""A project package whose app lives in pkg_celery/celery.py, found as `celery -A pkg_celery` finds it."""
