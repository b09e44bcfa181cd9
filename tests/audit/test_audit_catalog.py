"""The audit's catalog: PT and EN with the same placeholders, every key the code uses, none in the hashed catalogs."""
from __future__ import annotations

import re
from pathlib import Path

from celerylab.audit import audit_messages
from celerylab.audit.registry import UNUSED_SUPPRESSION, all_rules
from celerylab.i18n import catalog as tool_catalog
from celerylab.i18n import placeholders

SOURCES = Path(audit_messages.__file__).parent


def test_every_entry_has_pt_and_en_with_the_same_placeholders():
    for key, texts in audit_messages.catalog().items():
        assert set(texts) == {"pt", "en"}, key
        assert texts["pt"].strip() and texts["en"].strip(), key
        assert placeholders(texts["pt"]) == placeholders(texts["en"]), key


def test_every_rule_has_title_why_fix_and_message():
    for rule in [*all_rules().values(), UNUSED_SUPPRESSION]:
        for part in ("title", "why", "fix", "message"):
            assert audit_messages.has(rule.key(part)), rule.key(part)


def test_every_literal_key_the_code_uses_exists():
    used = set()
    for path in [*SOURCES.rglob("*.py"), SOURCES.parent / "commands" / "audit.py"]:
        used |= set(re.findall(r'\bt\(\s*f?"(audit\.[A-Za-z0-9_.{}]+)"', path.read_text(encoding="utf-8")))
    assert used
    for key in used:
        if "{" in key:
            prefix = key.split("{")[0]
            assert any(name.startswith(prefix) for name in audit_messages.catalog()), key
        else:
            assert audit_messages.has(key), key


def test_the_audit_adds_nothing_to_the_tool_catalogs():
    assert not [key for key in tool_catalog() if key.startswith("audit.")]
