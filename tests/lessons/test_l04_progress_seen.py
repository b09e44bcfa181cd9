"""Lesson 04's cancel check: the result backend's channel is subscribed before a report is sent, or the check says
the backend did not answer (the machine's fault, never the learner's)."""
from __future__ import annotations

import pytest

from celerylab.i18n import LANGS, set_lang
from celerylab.lessons.l04_results import checks, helpers
from celerylab.stack.errors import ServiceError


class SilentPubSub:
    """A subscription Redis never confirms."""

    closed = False

    def subscribe(self, channel: str) -> None:
        self.channel = channel

    def get_message(self, timeout: float = 0.0):
        return None

    def close(self) -> None:
        self.closed = True


class SilentRedis:
    def __init__(self) -> None:
        self.subscription = SilentPubSub()

    def pubsub(self) -> SilentPubSub:
        return self.subscription


@pytest.mark.parametrize("lang", LANGS)
def test_an_unconfirmed_subscription_is_the_machines_fault_in_the_learners_language(monkeypatch, lang):
    redis = SilentRedis()
    monkeypatch.setattr(helpers, "redis_client", lambda stack: redis)
    monkeypatch.setattr(helpers, "result_key", lambda stack, job_id: f"celery-task-meta-{job_id}")
    set_lang(lang)
    try:
        with pytest.raises(ServiceError) as raised:
            checks.ProgressSeen(object(), "job-1")
    finally:
        set_lang("pt")
    assert "celery-task-meta-job-1" in str(raised.value)
    assert ("não conseguiu assinar" if lang == "pt" else "could not subscribe") in str(raised.value)
    assert redis.subscription.closed
