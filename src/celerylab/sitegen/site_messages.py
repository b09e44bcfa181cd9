"""The site's own strings (sitegen/messages.yml), kept out of the catalogs that lesson digests hash."""
from __future__ import annotations

from pathlib import Path

from celerylab.i18n import t
from celerylab.i18n.catalog_file import CatalogFile

# celerylab/i18n/*.yml is hashed into every lesson's source digest (celerylab.compiler.digest): a wording
# change there re-executes every lesson. The site's words reach no notebook, so they live beside the site code.
MESSAGES = Path(__file__).with_name("messages.yml")
CATALOG = CatalogFile(MESSAGES)


def site_catalog() -> dict[str, dict[str, str]]:
    return CATALOG.messages


def st(key: str, lang: str | None = None, **values: object) -> str:
    """The site message `key` in `lang`; keys not in messages.yml come from the tool's catalogs (celerylab.i18n.t)."""
    return CATALOG.text(key, lang, **values) if CATALOG.has(key) else t(key, lang, **values)
