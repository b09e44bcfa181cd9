"""Lesson 03's notes' fix: task_annotations "*", which erases what a task declared in its decorator."""
from audit_apps.base import make_app

app = make_app("l03n", include=["audit_l03.shop.emails"],
               task_annotations={"*": {"max_retries": 3, "default_retry_delay": 60}})
