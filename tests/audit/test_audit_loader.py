"""Loading sees config_from_object, the environment and conf.update; a failed load says why, with the user's traceback."""
from __future__ import annotations

import sys

import pytest
from audit_helpers import HERE, pairs

from celerylab.audit.api import audit
from celerylab.audit.loader import LoadError


def test_config_from_object_module_is_seen(audit_app):
    assert pairs(audit_app("cfg_module_app").findings) == {("CL101", "task_acks_lat")}


def test_config_from_object_class_is_seen(audit_app):
    assert pairs(audit_app("cfg_class_app").findings) == {("CL501", "result_expires")}


def test_a_namespace_reads_only_its_prefixed_keys(audit_app):
    """A Django settings module: DEBUG and SECRET_KEY are Django's; CELERY_TASK_ACKS_LAT is a typo."""
    assert pairs(audit_app("cfg_namespace_app").findings) == {("CL101", "task_acks_lat")}


def test_old_uppercase_names_are_known_and_their_typos_are_not(audit_app):
    [finding] = audit_app("cfg_old_app").findings
    assert (finding.rule.id, finding.subject) == ("CL101", "CELERY_ACKS_LAT")
    assert "`CELERY_ACKS_LATE`" in finding.message


def test_config_from_envvar_is_seen(audit_app, monkeypatch):
    monkeypatch.setenv("AUDIT_APP_CONFIG", "audit_apps.cfg_settings")
    assert pairs(audit_app("cfg_envvar_app").findings) == {("CL101", "task_acks_lat")}


def test_a_value_computed_from_the_environment_is_seen(audit_app, monkeypatch):
    assert pairs(audit_app("cfg_env_value").findings) == set()
    monkeypatch.setenv("AUDIT_RESULT_TTL", "0.5")
    assert pairs(audit_app("cfg_env_value").findings) == {("CL501", "result_expires")}


def test_conf_update_and_assignment_are_seen(audit_app):
    assert pairs(audit_app("cl101_typo").findings) == {("CL101", "task_acks_lat")}   # conf.update
    assert pairs(audit_app("cl102").findings) == {("CL102", "task_max_retries")}     # app.conf.x = ...


def test_a_package_with_a_celery_module_is_found_as_celery_does(audit_app):
    report = audit_app("pkg_celery")
    assert report.facts["tasks"] == 1 and report.findings == []


def load_error(spec: str) -> LoadError:
    with pytest.raises(LoadError) as caught:
        audit(spec, path=str(HERE))
    return caught.value


def test_a_missing_module_says_so(english):
    error = load_error("audit_apps.no_such_module")
    assert "there is no module audit_apps.no_such_module on the import path" in str(error)
    assert error.traceback == ""


def test_something_that_is_not_a_celery_app(english):
    assert "audit_apps.not_an_app:app is not a Celery app (it is dict)" in str(load_error("audit_apps.not_an_app:app"))
    assert "has no app and no Celery app" in str(load_error("audit_apps.no_app"))


def test_an_exception_in_the_users_import_shows_the_users_traceback(english):
    error = load_error("audit_apps.bad_raises")
    assert "your code raised an exception (while importing the module)" in error.message
    lines = error.traceback.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-1] == "KeyError: 'AUDIT_SURELY_UNSET_DATABASE_URL'"
    files = [line for line in lines if line.startswith("  File ")]
    assert len(files) == 2 and all("bad_raises.py" in line for line in files)
    assert "celerylab" not in error.traceback.replace(str(HERE), "") and "importlib" not in error.traceback


def test_a_missing_dependency_of_the_users_module_is_the_users_error(english):
    error = load_error("audit_apps.bad_dependency")
    assert "your code raised an exception" in error.message
    assert error.traceback.endswith("ModuleNotFoundError: No module named 'audit_surely_missing_dependency'")


def test_a_missing_distribution_is_the_users_error_not_a_missing_module(english):
    # PackageNotFoundError is a ModuleNotFoundError named after the distribution (here the app's own package)
    error = load_error("audit_apps.bad_metadata")
    assert "your code raised an exception" in error.message and "there is no module" not in error.message
    assert error.traceback.endswith("PackageNotFoundError: No package metadata was found for audit_apps")


def test_an_exception_in_a_task_module_names_the_stage(english):
    error = load_error("audit_apps.bad_include")
    assert "while importing the task modules" in error.message
    assert "broken_tasks.py" in error.traceback and "celery/loaders" not in error.traceback


def test_the_audit_leaves_no_user_module_behind(audit_app):
    path = list(sys.path)
    audit_app("audit_l03.fixed")
    assert not [name for name in sys.modules if name.startswith(("audit_apps.", "audit_l03."))]
    assert sys.path == path


def test_shared_tasks_imported_before_the_audit_do_not_leak_into_the_app(audit_app):
    """A task module imported earlier in the same process (a lesson's) registers nothing in the audited app."""
    import celerylab.lessons.l01_retries.tasks  # noqa: F401 - tasks declared with @app.task (shared)

    report = audit_app("clean")
    assert report.facts["tasks"] == 1 and report.findings == []


def test_auditing_connects_to_nothing(audit_app, monkeypatch):
    """No socket opens while an app is loaded and every rule runs (Redis, AMQP and a backend configured)."""
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError(f"the audit tried to connect: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for module in ("clean", "cl112", "cl401", "cl502", "audit_l03.incident"):
        assert audit_app(module).errors == []


def test_a_syntax_error_shows_the_users_line_only(english, tmp_path):
    (tmp_path / "audit_bad_syntax.py").write_text('from celery import Celery\n\napp = Celery("s"\nx = 1\n')
    with pytest.raises(LoadError) as caught:
        audit("audit_bad_syntax", path=str(tmp_path))
    lines = caught.value.traceback.splitlines()
    assert lines[0].endswith('audit_bad_syntax.py", line 3') and lines[-1] == "SyntaxError: '(' was never closed"
    assert "importlib" not in caught.value.traceback


def test_a_codec_the_app_registers_goes_with_it(audit_app):
    """cl107_decoder registers an unpickling "json": after its audit, kombu's own json is back for the next app."""
    from kombu.serialization import registry

    before = registry._decoders["application/json"]
    assert pairs(audit_app("cl107_decoder").findings) == {("CL107", "accept_content:json")}
    assert registry._decoders["application/json"] is before
    assert pairs(audit_app("clean").findings) == set()
