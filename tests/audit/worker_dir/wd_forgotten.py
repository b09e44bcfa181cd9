"""Shared tasks the configuration's imports leave out."""
from celery import shared_task


@shared_task(name="wd.forgotten")
def forgotten():
    return 1
