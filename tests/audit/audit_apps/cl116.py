"""CL116: include names lesson 03's package instead of its modules (and one module that does declare tasks)."""
from audit_apps.base import make_app

app = make_app("cl116", include=["audit_l03.shop", "audit_l03.shop.emails"])
