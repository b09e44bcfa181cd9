"""Sets the memory limit per child to the check's 75 MB: the child's own memory counts too, so it is replaced after nearly every task. Violates: "the tasks run in at most 2 child processes"."""
from celerylab.lessons.l07_resilience.tasks import app

app.conf.worker_max_memory_per_child = 75_000  # KiB
