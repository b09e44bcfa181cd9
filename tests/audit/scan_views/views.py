"""Views of a web project, read by --scan and never imported: importing this file raises."""
from django.db import transaction

from audit_apps.scanned_app import notify

raise RuntimeError("this module must never be imported by the audit")


def signup(request):
    with transaction.atomic():
        notify.delay(request.user.id)


def export(request):
    notify.apply_async((request.user.id,), queue="exports")


def status(request):
    return {"result": notify.delay(request.user.id).get(timeout=5)}
