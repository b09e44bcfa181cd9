"""Lesson 03's small application package: e-mail tasks and scheduled tasks."""
