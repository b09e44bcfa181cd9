"""Replaces the child every 2 tasks: memory stays low, but six tasks run in three children (and pay three replacement pauses). Violates: "the tasks run in at most **2** child processes (each replacement may cost a pause: section 4).". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_tasks_per_child = 2
