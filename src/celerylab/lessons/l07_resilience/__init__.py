"""Lesson 07 (resilience): source, Celery app, notebook helpers and checks."""
