"""Lesson 04 (results): source, Celery app, notebook helpers and checks."""
