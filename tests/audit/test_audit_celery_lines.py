"""Rules that read what Celery releases store differently: 5.3 to 5.6 leave a task's time limits None where 5.7
copies the app-wide task_time_limit into it; the worker's pool applies the setting either way."""
from __future__ import annotations

import textwrap

import pytest
from audit_helpers import pairs

from celerylab.audit.api import audit

# An app whose tasks are bound as Celery 5.3 to 5.6 bind them: the time limits are not among Task.from_config.
APP = '''
from celery import Celery, Task


class BoundAsBefore57(Task):
    from_config = tuple(pair for pair in Task.from_config if pair[0] not in ("time_limit", "soft_time_limit"))


app = Celery("lines", set_as_current=False, task_cls=BoundAsBefore57)
app.conf.update(broker_url="redis://localhost:6379/0", result_backend="redis://localhost:6379/1", timezone="UTC",
                worker_prefetch_multiplier=1, {settings})


@app.task(name="lines.report")
def report(user_id):
    try:
        return build(user_id)
    except Exception:
        return None


def build(user_id):
    return user_id
'''


def audit_with(tmp_path, module: str, settings: str):
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(APP.replace("{settings}", settings)), encoding="utf-8")
    return pairs(audit(module, path=str(tmp_path)).findings)


@pytest.mark.parametrize("settings", ["task_time_limit=30", "task_soft_time_limit=25"])
def test_an_app_wide_limit_counts_when_the_task_keeps_none(english, tmp_path, settings):
    found = audit_with(tmp_path, "lines_limited", settings)
    assert task_is_unbound_of_limits(tmp_path, "lines_limited")
    assert ("CL201", "task_time_limit") not in found


def test_no_limit_anywhere_is_still_found(english, tmp_path):
    assert ("CL201", "task_time_limit") in audit_with(tmp_path, "lines_unlimited", "task_acks_late=False")


def test_an_app_wide_limit_on_a_pool_that_ignores_it_is_found(english, tmp_path):
    found = audit_with(tmp_path, "lines_solo", "task_time_limit=30, worker_pool='solo'")
    assert ("CL204", "worker_pool") in found


def test_an_app_wide_soft_limit_swallowed_by_a_broad_except_is_found(english, tmp_path):
    found = audit_with(tmp_path, "lines_swallowed", "task_soft_time_limit=25, task_time_limit=30")
    assert {rule for rule, _ in found} >= {"CL205"}
    assert not audit_with(tmp_path, "lines_no_soft", "task_time_limit=30") & {("CL205", "lines.report:17")}


def task_is_unbound_of_limits(tmp_path, module: str) -> bool:
    """The fixture does what it says: the task itself holds no limit, as on Celery 5.3 to 5.6."""
    from celerylab.audit.loader import loaded

    with loaded(module, str(tmp_path)) as app:
        task = app.app.tasks["lines.report"]
        return task.time_limit is None and task.soft_time_limit is None


def test_a_quorum_queue_is_read_from_its_arguments_where_celery_has_no_default_queue_type():
    """Celery 5.3 and 5.4 have no task_default_queue_type setting: CL409 reads the queue's own arguments, no error."""
    from types import SimpleNamespace

    from kombu import Queue

    from celerylab.audit.rules.delivery import queue_is_quorum

    before_55 = SimpleNamespace(conf={})
    assert queue_is_quorum(before_55, Queue("q", queue_arguments={"x-queue-type": "quorum"}))
    assert not queue_is_quorum(before_55, Queue("q"))
    assert queue_is_quorum(SimpleNamespace(conf={"task_default_queue_type": "quorum"}), Queue("q"))
