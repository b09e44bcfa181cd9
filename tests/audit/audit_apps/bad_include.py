"""Load error: a module the include lists raises while it is imported."""
from audit_apps.base import make_app

app = make_app("badinc", include=["audit_apps.broken_tasks"])
