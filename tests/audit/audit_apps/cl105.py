"""CL105: a misspelt route (its task goes to the default queue) and a moved task's route; undecided: a stale route
of a task that exists nowhere (a glob and a name), which nothing is sent under."""
from audit_apps.base import make_app

app = make_app("cl105", task_routes={"reports.*": {"queue": "reports"}, "cl105.reindex": "search",
                                     "cl105.old.export": {"queue": "exports"},
                                     "cl105.migrate_all": {"queue": "search"}})


@app.task(name="cl105.re_index")
def re_index():
    return 1


@app.task(name="cl105.new.export")
def export():
    """Moved from cl105.old: its route still names the old module."""
    return 1
