"""Suppressions written in the code: one that silences, one that silences nothing."""
from audit_apps.base import make_app

app = make_app("comments")


@app.task(name="comments.fixed_rhythm", autoretry_for=(ConnectionError,), max_retries=2)  # celerylab-audit: ignore[CL305]
def fixed_rhythm():
    """A poller that must keep its pace: the fixed rhythm is deliberate."""


@app.task(name="comments.noisy", autoretry_for=(ConnectionError,), max_retries=2)
def noisy():
    return 1


@app.task(name="comments.stale", max_retries=2)
def stale():  # celerylab-audit: ignore[CL301, CL999]
    return 1


app.conf.task_acks_lat = True  # celerylab-audit: ignore[CL101]
