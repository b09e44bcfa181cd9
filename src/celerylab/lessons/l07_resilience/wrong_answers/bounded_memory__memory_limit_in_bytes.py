"""Gives `worker_max_memory_per_child` in bytes (75 MB = 78,643,200) although the setting is in KiB: the limit is ~75 GB and never triggers. Violates: "the peak growth of the worker's resident memory, above the figure measured before the first task, stays within **75 MB** (without a limit, ~120 MB);". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_memory_per_child = 75 * 1024 * 1024  # 75 MB
