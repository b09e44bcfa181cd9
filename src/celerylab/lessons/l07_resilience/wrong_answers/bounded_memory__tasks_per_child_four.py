"""Copies the lesson's `worker_max_tasks_per_child = 4`, tuned for 10 MB tasks: with 20 MB tasks the first child holds 80 MB before it is replaced. Violates: "the peak growth of the worker's resident memory, above the figure measured before the first task, stays within **75 MB** (without a limit, ~120 MB);". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_tasks_per_child = 4
