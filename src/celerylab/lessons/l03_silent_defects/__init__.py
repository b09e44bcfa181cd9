"""Lesson 03 (silent_defects): source, Celery app, notebook helpers and checks."""
