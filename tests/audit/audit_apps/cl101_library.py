"""CL101 with a library's own settings: CELERY_MAILER_BACKEND (read by the library) and CELERY_MAILER_CHUNK_SIZE
(declared by its appconf class) are the library's; the misspelt CELERY_MAILER_CHUNK_SIZ and result_expire (a name
the library reads only as an attribute of its own object, never from a configuration) are read by nobody."""
from celery import Celery

import audit_apps.libraries  # noqa: F401 - the stand-in libraries' folder on the path
import fakemailer.tasks  # noqa: F401 - loaded with the app, as INSTALLED_APPS loads django-celery-email

app = Celery("cl101lib", set_as_current=False)
app.config_from_object("audit_apps.library_settings")


@app.task(name="cl101lib.work")
def work():
    return 1
