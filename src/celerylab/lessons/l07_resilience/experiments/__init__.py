"""Lesson 07's experiments: each module holds the Celery calls of one measured cell, which shows its source."""
