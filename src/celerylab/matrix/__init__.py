"""The release matrix: every lesson's claim tests run on several Celery release lines, and what each one observed."""
