"""CL105: routes naming no registered task (a name and a glob)."""
from audit_apps.base import make_app

app = make_app("cl105", task_routes={"reports.*": {"queue": "reports"}, "cl105.reindex": "search",
                                     "cl105.re_index": {"queue": "search"}})


@app.task(name="cl105.re_index")
def re_index():
    return 1
