"""CL101 with no setting near the unknown key's name."""
from audit_apps.base import make_app

app = make_app("cl101f", zzqx_wibble=True)


@app.task(name="cl101f.work")
def work():
    return 1
