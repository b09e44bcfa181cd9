"""The task module pkg_imports' __init__ imports."""
from audit_apps.cl116_ok import app


@app.task(name="cl116ok.job")
def job():
    return 1
