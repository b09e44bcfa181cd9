"""On weekends in July (decided when the module is imported) the exports stay on `default`. Violates: "your module assigns `task_routes` **once**, at the file's top level (outside any `if`, function or loop), to a dict written out (strings only, no variables, conditions or code), and no other line of it reads or changes `task_routes`". Blind review."""
import datetime

from celerylab.lessons.l06_architecture.tasks import app
from celerylab.lessons.l06_architecture.web import api  # the producer the check serves

_today = datetime.date.today()
_quiet = _today.month == 7 and _today.weekday() >= 5  # summer weekends: nobody exports, keep heavy free

app.conf.task_routes = {
    "email.send_welcome": {"queue": "priority"},
    "report.build_pdf": {"queue": "heavy"},
    "email.send_password_reset": {"queue": "priority"},
    **({} if _quiet else {"report.export_grades": {"queue": "heavy"}}),
}
