"""The shop's e-mail tasks (the module every include lists)."""
from celery import shared_task


@shared_task(name="emails.welcome", bind=True, default_retry_delay=30)
def welcome(self, address: str) -> dict:
    return {"status": "sent", "to": address}
