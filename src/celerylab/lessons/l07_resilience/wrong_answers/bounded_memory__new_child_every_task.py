"""Replaces the child after every task: the memory stays low, with six children for six tasks. Violates: "the tasks run in at most 2 child processes"."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_tasks_per_child = 1
