"""Adds the grader's simulated-machine variable (CELERYLAB_L07_BALLAST_MB) to an absolute memory limit, so it adapts only where the check says how big the child is; on a real other machine it is a limit tuned to this one. Violates: "the tasks run in at most **2** child processes". Blind review."""
import os

from celerylab.lessons.l07_resilience.tasks import BALLAST_ENV, app

app.conf.worker_max_memory_per_child = 100_000 + 1024 * int(os.environ.get(BALLAST_ENV, "0"))  # KiB
