"""A plugin the shop's tests load: its task is registered by those tests, never by a worker."""
from celery import shared_task


@shared_task(name="shop.tests.fake_plugin")
def fake_plugin():
    return 1
