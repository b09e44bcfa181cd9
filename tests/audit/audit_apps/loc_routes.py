"""The same unknown task name as an annotation key and as a route key: each finding points at its own key."""
from audit_apps.base import make_app

app = make_app(
    "locr",
    task_annotations={
        "locr.missing": {"rate_limit": "10/m"},
    },
    task_routes={
        "locr.missing": {"queue": "celery"},
    },
)


@app.task(name="locr.misssing")
def misssing():
    return 1
