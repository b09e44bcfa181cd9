"""Lesson 06 (architecture): source, Celery app, notebook helpers and checks."""
