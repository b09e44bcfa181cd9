"""CL202: a soft limit above the hard one."""
from audit_apps.base import make_app

app = make_app("cl202")


@app.task(name="cl202.export", time_limit=100, soft_time_limit=120)
def export():
    return 1
