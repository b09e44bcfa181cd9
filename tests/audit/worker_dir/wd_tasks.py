"""Tasks the configuration imports."""
from celery import shared_task


@shared_task(name="wd.fetch")
def fetch(url):
    return url
