"""The audit's own catalog (audit/messages.yml, read through celerylab.i18n.t): which keys it holds."""
from __future__ import annotations

from celerylab.i18n import family_catalog

PREFIX = "audit."


def catalog() -> dict[str, dict[str, str]]:
    return family_catalog(PREFIX)


def has(key: str) -> bool:
    return key in catalog()
