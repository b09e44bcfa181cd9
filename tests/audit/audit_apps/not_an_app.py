"""Load error: `app` is a dict, not a Celery app."""
app = {"broker_url": "redis://"}
