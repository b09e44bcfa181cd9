"""Lesson 02 (workers): source, Celery app, notebook helpers and checks."""
