"""CL116 silent: a string imports naming the module that declares the tasks."""
from audit_apps.base import make_app

app = make_app("cl116sok", imports=("audit_l03.shop.emails"))
