"""A setting computed from the environment (AUDIT_RESULT_TTL) when the app is imported."""
import os

from audit_apps.base import make_app

app = make_app("cfgval", result_expires=float(os.environ.get("AUDIT_RESULT_TTL", "86400")))


@app.task(name="cfgval.work")
def work():
    return 1
