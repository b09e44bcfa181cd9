"""The audit's own strings (audit/messages.yml), kept out of the catalogs that lesson digests hash."""
from __future__ import annotations

from pathlib import Path

from celerylab.i18n.catalog_file import CatalogFile

# celerylab/i18n/*.yml is hashed into every lesson's source digest: the audit's words reach no notebook,
# so they live beside the audit code, as the site's do (celerylab.sitegen.site_messages).
MESSAGES = Path(__file__).with_name("messages.yml")
CATALOG = CatalogFile(MESSAGES)


def catalog() -> dict[str, dict[str, str]]:
    return CATALOG.messages


def has(key: str) -> bool:
    return CATALOG.has(key)


def at(key: str, lang: str | None = None, **values: object) -> str:
    """The audit message `key` in `lang` (default: the language in force), formatted with `values`."""
    return CATALOG.text(key, lang, **values)
