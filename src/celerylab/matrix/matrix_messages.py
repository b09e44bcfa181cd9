"""The matrix's own strings (matrix/messages.yml), kept out of the catalogs that lesson digests hash."""
from __future__ import annotations

from pathlib import Path

from celerylab.i18n.catalog_file import CatalogFile

CATALOG = CatalogFile(Path(__file__).with_name("messages.yml"))


def mt(key: str, lang: str | None = None, **values: object) -> str:
    return CATALOG.text(key, lang, **values)
