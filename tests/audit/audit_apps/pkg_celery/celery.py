"""The app of a project package, in pkg_celery/celery.py (not in __init__): `celery -A pkg_celery` finds it there."""
from audit_apps.base import make_app

project = make_app("pkg")


@project.task(name="pkg.work")
def work():
    return 1
