"""CL101: result_backend_thread_safe is read by Celery's backends (conf.get) though app/defaults.py does not declare it:
not flagged; the misspelled result_backend_thread_saf is read by nobody and stays flagged."""
from audit_apps.base import make_app

app = make_app("cl101u", result_backend_thread_safe=True, result_backend_thread_saf=True)


@app.task(name="cl101u.work")
def work():
    return 1
