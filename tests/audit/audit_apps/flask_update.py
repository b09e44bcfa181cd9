"""`celery.conf.update(flask_app.config)`, the older Flask pattern: every Flask key lands in app.conf."""
import importlib

from audit_apps.base import make_app

flask_config = {key: value for key, value in vars(importlib.import_module("audit_apps.flask_config")).items()
                if key.isupper()}
app = make_app("flaskup")
app.conf.update(flask_config)


@app.task(name="flaskup.work")
def work():
    return 1
