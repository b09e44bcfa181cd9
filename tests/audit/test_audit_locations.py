"""Where findings point: the line creating the app (not line 1 of an empty __init__), a route's own key, a Beat entry."""
from __future__ import annotations

import pytest


def where(report) -> dict:
    return {(f.rule.id, f.subject): (f.hit.file, f.hit.line) for f in report.findings}


@pytest.mark.parametrize("spec", ["audit_apps.pkg_loc", "audit_apps.pkg_loc.celery.app", "audit_apps.pkg_loc.celery:app"])
def test_app_wide_findings_point_at_the_line_creating_the_app(audit_app, spec):
    """`-A proj` with an empty proj/__init__.py, and the `pkg.module.attr` spec: both at pkg_loc/celery.py:4."""
    found = where(audit_app(spec))
    assert found[("CL201", "task_time_limit")] == ("audit_apps/pkg_loc/celery.py", 4)
    assert found[("CL503", "result_backend")] == ("audit_apps/pkg_loc/celery.py", 4)


def test_a_route_and_an_annotation_with_the_same_key_point_at_their_own_lines(audit_app):
    found = where(audit_app("loc_routes"))
    assert found == {("CL105", "locr.missing"): ("audit_apps/loc_routes.py", 10),
                     ("CL106", "locr.missing"): ("audit_apps/loc_routes.py", 7)}


def test_a_beat_entry_and_a_route_key_are_located_at_their_keys(audit_app):
    assert where(audit_app("cl606")) == {("CL606", "too-many"): ("audit_apps/cl606.py", 5),
                                         ("CL606", "wrong-keyword"): ("audit_apps/cl606.py", 6)}
    assert where(audit_app("cl701"))[("CL701", "task_routes['cl701.invoice']")] == ("audit_apps/cl701.py", 7)


def test_a_task_finding_points_at_its_decorator(audit_app):
    assert where(audit_app("cl119"))[("CL119", "cl119.odd.serializer")] == ("audit_apps/cl119.py", 12)


def test_a_setting_points_at_the_line_that_sets_it(audit_app):
    assert where(audit_app("cl118"))[("CL118", "result_backend")] == ("audit_apps/cl118.py", 4)
    assert where(audit_app("cl102_property"))[("CL101", "celery_backend")] == ("audit_apps/cl102_property.py", 5)


def test_a_task_under_wrapping_decorators_points_at_its_own_definition(audit_app):
    """@atomic() (a ContextDecorator: its wrapper is in contextlib.py) and a functools.wraps helper of another file."""
    assert where(audit_app("loc_wrapped")) == {("CL302", "locw.saved"): ("audit_apps/loc_wrapped.py", 8),
                                              ("CL302", "locw.logged"): ("audit_apps/loc_wrapped.py", 14)}
