"""CL116 silent: include names a package whose __init__ imports the module that declares the tasks."""
from audit_apps.base import make_app

app = make_app("cl116ok", include=["audit_apps.pkg_imports"])
