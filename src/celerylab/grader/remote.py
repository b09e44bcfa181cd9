"""Sending grading jobs to Celery workers on other machines and collecting their results as they finish.

Jobs and results are signed with the key the instructor and the workers share (grader/signing.py): a
result that is unsigned, altered or another task's is a grader failure for that entry, never a score.
"""
from __future__ import annotations

import os
import time
import uuid

from celerylab.grader import signing
from celerylab.grader.spec import JobResult
from celerylab.i18n import t
from celerylab.stack import appconfig

POLL_SECONDS = 0.2
CONNECT_SECONDS = 5.0


class BrokerProblem(Exception):
    """The broker given cannot run a batch: malformed, unreachable, or without a grading worker (translated)."""


def _problem(key: str, url: str, error: BaseException | None = None, **values) -> BrokerProblem:
    """One line, the password masked."""
    from kombu.utils.url import maybe_sanitize_url

    try:
        shown = maybe_sanitize_url(url)
    except Exception:  # a URL too broken to parse is shown as given
        shown = url
    detail = " ".join(f"{type(error).__name__}: {error}".split()) if error else ""
    return BrokerProblem(t(key, url=shown, error=detail, **values))


def connect(broker_url: str, timeout: float = CONNECT_SECONDS):
    """The grading app bound to `broker_url`, once a worker running the grading task answered; else BrokerProblem."""
    from celerylab.grader.celery_app import TASK, app

    try:
        signing.key()
    except signing.Unsigned as error:
        raise _problem("cmd.grade.no_signing_key", broker_url, error) from None
    try:
        appconfig.rebind(app, broker_url, os.environ.get(appconfig.NAMESPACE_ENV, ""))
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
    except Exception as error:  # kombu raises many types for bad schemes, hosts and refusals
        raise _problem("cmd.grade.broker_unreachable", broker_url, error) from None
    try:
        registered = app.control.inspect(timeout=min(timeout, 3.0)).registered() or {}
    except Exception as error:
        raise _problem("cmd.grade.broker_unreachable", broker_url, error) from None
    workers = [name for name, tasks in registered.items() if TASK in (tasks or [])]
    if not workers:
        raise _problem("cmd.grade.no_worker", broker_url, seconds=min(timeout, 3.0))
    return app, workers


class RemoteBatch:
    """Jobs sent one by one as they are prepared; poll() and wait() give (prepared, item, result, error)."""

    def __init__(self, broker_url: str):
        self.app, self.workers = connect(broker_url)
        self.pending: dict = {}

    def send(self, prepared, item) -> None:
        from celerylab.grader.celery_app import TASK

        job = prepared.job
        budget = job.notebook_timeout + 60 + job.check_timeout * (len(job.exercises) + 1) * 2
        queued = 1 + len(self.pending) // max(1, len(self.workers))  # jobs ahead of this one per worker
        task_id = str(uuid.uuid4())
        result = self.app.send_task(TASK, (signing.sign("job", task_id, job.to_record()),), task_id=task_id)
        self.pending[result.id] = (prepared, item, result, time.monotonic() + budget * queued)

    def poll(self):
        for task_id, (prepared, item, result, deadline) in list(self.pending.items()):
            if result.ready():
                del self.pending[task_id]
                if result.successful():
                    try:
                        record = signing.verify("result", task_id, result.result)
                    except signing.Unsigned as error:
                        yield prepared, item, None, f"Unsigned: {error}"
                        continue
                    yield prepared, item, JobResult.from_record(record), None
                else:
                    yield prepared, item, None, f"{type(result.result).__name__}: {result.result}"
            elif time.monotonic() > deadline:
                del self.pending[task_id]
                yield prepared, item, None, "timeout waiting for a grading worker"

    def wait(self):
        while self.pending:
            yield from self.poll()
            if self.pending:
                time.sleep(POLL_SECONDS)  # polling the result backend: the condition is each result's state
