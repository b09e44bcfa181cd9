"""`--live`: a real worker of the app, on a private broker, says which tasks it registered."""
from __future__ import annotations

import pytest
from audit_helpers import HERE, pairs

from celerylab.audit.live import registered

pytestmark = pytest.mark.live


def test_the_worker_registers_what_the_include_imports(english):
    names = registered("audit_l03.fixed", str(HERE))
    assert {"emails.welcome", "data.backup_db", "l03.describe_user"} <= names


def test_live_findings_match_the_import(audit_app):
    report = audit_app("audit_l03.incident", live=True)
    assert ("CL104", "backup-db-hourly") in pairs(report.findings)


def test_a_task_the_worker_did_not_register(audit_app):
    assert pairs(audit_app("cl115").findings) == set()   # without --live, nothing says so
    report = audit_app("cl115", live=True)
    assert pairs(report.findings) == {("CL115", "cl115.sometimes")}
