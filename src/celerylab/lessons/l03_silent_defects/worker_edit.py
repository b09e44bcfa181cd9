"""A task of the check's, loaded onto the learner's worker (--include): a user's e-mail changed in the worker, as a record changes after .delay()."""
from __future__ import annotations

import importlib

from celery import shared_task


@shared_task(name="l03.change_email")
def change_email(module: str, user_id: int, email: str) -> str:
    user = importlib.import_module(module).load_user(user_id)
    user.email = email
    return email
