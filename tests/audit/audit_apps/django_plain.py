"""config_from_object of a Django settings module without namespace="CELERY" (as `django.conf:settings` often is)."""
from celery import Celery

app = Celery("djplain", set_as_current=False)
app.config_from_object("audit_apps.django_plain_settings")


@app.task(name="djplain.work")
def work():
    return 1
