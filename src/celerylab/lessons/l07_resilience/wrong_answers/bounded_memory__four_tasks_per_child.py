"""Copies section 4's worker_max_tasks_per_child = 4: the first child keeps four 20 MB reports (80 MB) before it is replaced, over the 75 MB budget by one report. Violates: "the peak growth of the worker's resident memory, above the figure measured before the first task, stays within **75 MB**". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_tasks_per_child = 4  # the figure the lesson measured
