"""Copies the lesson's absolute `worker_max_memory_per_child = 90000` KiB, chosen for 10 MB tasks and this machine's fresh child: whether the child is replaced after 2 or 3 tasks depends on the baseline, so on a slightly larger or smaller fresh child it needs three children or goes over 75 MB. Violates: "the tasks run in at most **2** child processes (each replacement may cost a pause: section 4).". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_memory_per_child = 90_000  # KiB, as in section 4
