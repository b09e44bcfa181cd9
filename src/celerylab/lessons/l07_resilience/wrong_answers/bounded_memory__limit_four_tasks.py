"""Replaces the child every four tasks: four leaks of 20 MB, 80 MB, pile up before the first replacement. Violates: "the peak growth ... stays within 75 MB"."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_tasks_per_child = 4
