"""The course's lessons, one package each: source, Celery app, notebook helpers and checks."""
