"""CL403 undecided: acks_late tasks with the default prefetch, capped only by the app-wide limit of a minute or more
(hypothesis/h's 240 s task_time_limit): an allowance every task gets, not a run time."""
from audit_apps.base import make_app

app = make_app("cl403lim", drop=("worker_prefetch_multiplier",), task_reject_on_worker_lost=True,
               task_time_limit=240, task_soft_time_limit=230)


@app.task(name="cl403lim.index", acks_late=True)
def index():
    return 1
