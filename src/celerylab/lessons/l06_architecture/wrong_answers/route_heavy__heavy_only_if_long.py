"""Routes report.export_grades to `heavy` only when its `seconds` argument is above 0.5 (a threshold chosen under the check's 1-second exports), so a shorter export still runs on `default` ahead of the short tasks, and only a route asked without arguments says `heavy`. Violates: "send `report.export_grades` to `heavy` and leave a task without a route on `default`". Blind review."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

LONG_ENOUGH = 0.5  # seconds: an export shorter than this is "light" and may share the default worker


def heavy_exports(name, args, kwargs, options, task=None, **kw):
    if name != "report.export_grades":
        return None
    seconds = (kwargs or {}).get("seconds")
    if seconds is None and args and len(args) > 1:
        seconds = args[1]
    if seconds is None or float(seconds) > LONG_ENOUGH:
        return {"queue": "heavy"}
    return {"queue": "default"}


app.conf.task_routes = (heavy_exports, ROUTES)
