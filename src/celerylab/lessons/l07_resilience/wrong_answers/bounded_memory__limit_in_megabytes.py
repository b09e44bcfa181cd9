"""Writes the memory limit in MB (75) where Celery expects KiB, so every child is already over the limit when it starts and is replaced after every task: six tasks, six children. Violates: "the tasks run in at most **2** child processes". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_memory_per_child = 75  # MB: the growth the team accepts
