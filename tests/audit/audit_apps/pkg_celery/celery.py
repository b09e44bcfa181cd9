from audit_apps.base import make_app

project = make_app("pkg")


@project.task(name="pkg.work")
def work():
    return 1
