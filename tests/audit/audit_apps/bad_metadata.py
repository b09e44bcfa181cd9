"""Load error: the project reads its own distribution's version (as Nautobot does), and it is not installed."""
from importlib.metadata import version

VERSION = version("audit_apps")
