"""A task limit that replaces the child too late: five leaks of 20 MB pile up first. Violates: "the peak growth ... stays within 75 MB"."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_tasks_per_child = 5
