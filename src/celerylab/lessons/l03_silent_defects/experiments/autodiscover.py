"""What autodiscover_tasks (or include) registers: each call in a fresh interpreter, imported as a worker starts."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import helpers

CALLS = [
    "app.autodiscover_tasks([SHOP])",
    "app.autodiscover_tasks([SHOP], related_name='scheduled')",
    "app.autodiscover_tasks([SHOP + '.scheduled'])",
    "app.autodiscover_tasks([SHOP], related_name=None)",
    "app.conf.include = [SHOP + '.emails', SHOP + '.scheduled']",
]
PROBE = """
import json
from celery import Celery
SHOP = "celerylab.lessons.l03_silent_defects.shop"
app = Celery("probe", set_as_current=False)
{call}
app.loader.import_default_modules()  # what a worker does when it starts
print(json.dumps(sorted(name for name in app.tasks if not name.startswith("celery."))))
"""


@dataclass
class Autodiscover:
    registered: dict[str, list[str]]  # call -> the tasks the app registered


def autodiscover(calls: list[str] = CALLS) -> Autodiscover:
    printed = helpers.run_each([PROBE.format(call=call) for call in calls])  # python -c, two at a time
    return Autodiscover(dict(zip(calls, printed)))
