"""Fixtures for the audit's tests: English messages, and an auditor of tests/audit/audit_apps."""
from __future__ import annotations

import pytest
from audit_helpers import audited

from celerylab.i18n import get_lang, set_lang


@pytest.fixture
def english():
    previous = get_lang()
    set_lang("en")
    yield
    set_lang(previous)


@pytest.fixture
def audit_app(english):
    return audited
