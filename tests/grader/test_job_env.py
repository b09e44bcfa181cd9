"""The grading job's environment is an allowlist: no credential or broker URL of the grader's reaches it."""
from __future__ import annotations

from pathlib import Path

from celerylab.grader.job_supervisor import job_env


def test_the_graders_secrets_never_reach_the_job(monkeypatch, tmp_path):
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t")
    monkeypatch.setenv("REDIS_URL", "redis://:hunter2@localhost:6379/0")
    monkeypatch.setenv("CELERYLAB_BROKER_URL", "amqp://guest:hunter2@localhost//")
    monkeypatch.setenv("CELERYLAB_GRADING_KEY", "shared-hmac-key")
    monkeypatch.setenv("LANG", "pt_BR.UTF-8")
    env = job_env(None, Path(tmp_path))
    assert not [value for value in env.values() if "s3cr3t" in value or "hunter2" in value or "hmac" in value]
    assert env["LANG"] == "pt_BR.UTF-8" and env["HOME"] == str(tmp_path) and env["CELERYLAB_GRADING"] == "1"
