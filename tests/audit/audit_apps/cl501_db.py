"""CL501 on a backend that is not Redis (a cache here, django-db in doccano): result_expires=None."""
from audit_apps.base import make_app

app = make_app("cl501db", result_backend="cache+memory://", result_expires=None)


@app.task(name="cl501db.work")
def work():
    return 1
