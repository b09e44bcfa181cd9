"""A module named tasks: the only one autodiscover_tasks looks for by default."""
from celery import shared_task


@shared_task(name="data.cleanup")
def cleanup() -> str:
    return "cleaned"
