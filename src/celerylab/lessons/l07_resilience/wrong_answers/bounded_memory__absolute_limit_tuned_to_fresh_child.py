"""Sets worker_max_memory_per_child to an absolute figure tuned to this machine's fresh child (~60 MB + 50 MB); on a worker whose fresh child is 25 MB bigger the limit is crossed after every task or two and the six tasks use more than two children. Violates: "the tasks run in at most **2** child processes". Blind review."""
from celerylab.lessons.l07_resilience.tasks import app

# fresh child measured here ~60 MB; allow ~2.5 reports (20 MB each) on top, then replace it
app.conf.worker_max_memory_per_child = 110_000  # KiB
