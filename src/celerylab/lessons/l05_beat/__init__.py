"""Lesson 05 (beat): source, Celery app, notebook helpers and checks."""
