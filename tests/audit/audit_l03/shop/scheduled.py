"""The shop's periodic tasks, sent by Beat by name: the module the incident's include forgets."""
from celery import shared_task


@shared_task(name="data.backup_db")
def backup_db(database: str) -> dict:
    return {"status": "ok", "database": database}
