"""A router function that sends report tasks to `heavy` only while the `default` list in Redis has work waiting and to `default` when it is empty, so an export that arrives on an idle `default` blocks the next short task for its whole run. Violates: "send `email.send_welcome` to `priority` and `report.build_pdf` to `heavy` (even when the `default` queue is idle), send `report.export_grades` to `heavy`". Blind review."""
from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # noqa: F401  (the producer the check serves)

HEAVY = {"report.build_pdf", "report.export_grades"}


def _default_is_busy() -> bool:
    try:
        with app.connection_for_write() as connection:
            return connection.default_channel.client.llen("default") > 0
    except Exception:
        return True  # cannot tell: be safe, use the heavy worker


def route_by_load(name, args, kwargs, options, task=None, **kw):
    if name == "email.send_welcome":
        return {"queue": "priority"}
    if name in HEAVY:
        # no point in waiting for the single heavy process when the default worker has nothing to do
        return {"queue": "heavy" if _default_is_busy() else "default"}
    return None


app.conf.task_routes = (route_by_load,)
