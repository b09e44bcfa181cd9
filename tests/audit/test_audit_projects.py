"""Projects as they are laid out: a flat folder, a worker run without -A on a celeryconfig.py, views read by --scan."""
from __future__ import annotations

import json

import pytest
from audit_helpers import HERE, pairs

from celerylab import cli
from celerylab.audit.api import audit
from celerylab.i18n import set_lang


@pytest.fixture(autouse=True)
def restore_lang():
    yield
    set_lang("pt")


def run_json(capsys, *argv):
    status = cli.main(["audit", *argv, "--format", "json", "--lang", "en"])
    out = capsys.readouterr().out
    return status, json.loads(out) if out else None


def located(data) -> set[tuple]:
    return {(f["rule"], f["subject"], f["file"], f["line"]) for f in data["findings"]}


def test_a_task_module_nobody_imports_in_a_flat_layout(english):
    """flat_web.py imports flat_forgotten and sends its task: a defect. flat_dead.py is named by nothing: a dead
    task, undecided (the finding plane's project_invitation_task got)."""
    report = audit("flat_app", path=str(HERE / "flat_project"))
    assert [(f.rule.id, f.subject, f.hit.file, f.hit.line) for f in report.findings if f.rule.id == "CL114"] == \
        [("CL114", "flat_forgotten", "flat_forgotten.py", 6)]
    assert [(f.rule.id, f.subject, f.hit.file, f.hit.line) for f in report.unknown if f.rule.id == "CL114"] == \
        [("CL114", "flat_dead", "flat_dead.py", 6)]
    assert "nothing in the project imports the module or names these tasks" in report.unknown[0].message


@pytest.mark.parametrize("argv", [(), ("-A", "celery:current_app")])
def test_a_worker_run_without_app_on_a_celeryconfig(capsys, argv):
    """As `celery worker` in worker_dir/ runs: the default app, configured by celeryconfig.py, tasks from `imports`."""
    status, data = run_json(capsys, *argv, "--path", str(HERE / "worker_dir"))
    assert status == 1 and data["tasks"] == 1
    assert {("CL101", "result_expiress", "celeryconfig.py", 6), ("CL114", "wd_forgotten", "wd_forgotten.py", 6)} \
        <= located(data)
    assert all("site-packages" not in (f["file"] or "") for f in data["findings"])   # nothing of Celery's own
    assert not [f for f in data["findings"] if f["rule"] == "CL114" and f["subject"].startswith("celery.")]


def test_without_app_nor_celeryconfig_it_asks_which_app(capsys, tmp_path):
    assert cli.main(["audit", "--path", str(tmp_path), "--lang", "en"]) == 2
    assert "without -A, a celeryconfig.py must be in the folder" in capsys.readouterr().err


def test_current_app_without_a_config_walks_nothing_of_celery(english, tmp_path):
    report = audit("celery:current_app", path=str(tmp_path))
    assert not [f for f in report.findings if f.rule.id == "CL114"]
    assert all(not f.hit.file or "site-packages" not in f.hit.file for f in report.findings)


def test_scan_reads_views_for_call_sites_without_importing_them(capsys):
    """scan_views/views.py raises when imported; its sends and reads are found all the same."""
    argv = ("-A", "audit_apps.scanned_app", "--path", str(HERE))
    _, without = run_json(capsys, *argv)
    status, data = run_json(capsys, *argv, "--scan", str(HERE / "scan_views"))
    scanned = {(rule, subject, file, line) for rule, subject, file, line in located(data)
               if file.startswith("scan_views/")}
    assert status == 1 and scanned == {
        ("CL307", "scan_views/views.py:11", "scan_views/views.py", 11),   # .delay() inside transaction.atomic()
        ("CL701", "scan_views/views.py:15", "scan_views/views.py", 15),   # queue="exports", not declared
        ("CL502", "scan_views/views.py:19", "scan_views/views.py", 19),   # .get() with no result backend
    }
    assert not [f for f in without["findings"] if (f["file"] or "").startswith("scan_views/")]


def test_a_scanned_undeclared_queue_without_automatic_creation_is_cl702(english, tmp_path):
    (tmp_path / "scan_app.py").write_text(
        "from celery import Celery\nfrom kombu import Queue\n\n"
        "app = Celery('s', set_as_current=False)\n"
        "app.conf.update(task_queues=[Queue('celery')], task_create_missing_queues=False)\n")
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "views.py").write_text("def view():\n    app.send_task('x', queue='reports')\n")
    report = audit("scan_app", path=str(tmp_path), scan=[str(tmp_path / "web")])
    assert ("CL702", "web/views.py:2") in pairs(report.findings)


def test_a_test_fixture_package_is_no_forgotten_task_module(english):
    """shop/_test_plugins/ declares a shared task no worker imports, as shop/scheduled.py does: only the latter counts."""
    report = audit("audit_l03.incident", path=str(HERE))
    assert [f.subject for f in report.findings if f.rule.id == "CL114"] == ["audit_l03.shop.scheduled"]
