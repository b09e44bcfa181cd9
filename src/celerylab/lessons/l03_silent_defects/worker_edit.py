"""Tasks of the check's, loaded onto the learner's worker (--include): users changed or added in the worker, as records change after .delay(), and the app's serializers read there (settings, and whether "json" is kombu's own)."""
from __future__ import annotations

import importlib

from celery import shared_task

from celerylab.lessons.l03_silent_defects import json_codec


@shared_task(name="l03.change_email")
def change_email(module: str, user_id: int, email: str) -> str:
    user = importlib.import_module(module).load_user(user_id)
    user.email = email
    return email


@shared_task(name="l03.add_user")
def add_user(module: str, user_id: int, email: str) -> str:
    """A user only the worker has (`USERS[user_id] = User(user_id, email)`): one created after the API process started."""
    learner = importlib.import_module(module)
    learner.USERS[user_id] = learner.User(user_id, email)
    return email


@shared_task(bind=True, name="l03.serializers")
def serializers(self) -> list:
    """[task_serializer, accept_content, result_serializer, result_accept_content] of the app the worker runs (a
    worker serializing with pickle answers inspect in pickle, which the check does not load)."""
    conf = self.app.conf
    return [conf.task_serializer, list(conf.accept_content or []), conf.result_serializer,
            list(conf.result_accept_content) if conf.result_accept_content else None]


@shared_task(name="l03.json_codec")
def json_codec_faults() -> list:
    """What differs, in the worker's pool process (where messages are decoded), from kombu's own JSON serializer."""
    return json_codec.faults()
