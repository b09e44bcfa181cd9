"""Lesson 08 (rabbitmq): source, Celery app, notebook helpers and checks."""
