"""Copies the lesson's `worker_max_memory_per_child = 40000` KiB, below what a fresh child already uses, so the child is replaced after every task: six children. Violates: "the tasks run in at most **2** child processes (each replacement may cost a pause: section 4).". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_memory_per_child = 40_000  # KiB
