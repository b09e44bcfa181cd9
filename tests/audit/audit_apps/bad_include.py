from audit_apps.base import make_app

app = make_app("badinc", include=["audit_apps.broken_tasks"])
