"""CL116 on a string include (`("pkg")` is no tuple): Celery reads it as one module, so one finding, not one a letter."""
from audit_apps.base import make_app

app = make_app("cl116s", include=("audit_l03.shop"))
