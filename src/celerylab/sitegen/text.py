"""The site's own strings (sitegen/messages.yml), kept out of the catalogs that lesson digests hash."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from celerylab.i18n import get_lang, normalize, t

# celerylab/i18n/*.yml is hashed into every lesson's source digest (celerylab.compiler.digest): a wording
# change there re-executes every lesson. The site's words reach no notebook, so they live beside the site code.
MESSAGES = Path(__file__).with_name("messages.yml")


@lru_cache(maxsize=1)
def site_catalog() -> dict[str, dict[str, str]]:
    return yaml.safe_load(MESSAGES.read_text(encoding="utf-8")) or {}


def st(key: str, lang: str | None = None, **values: object) -> str:
    """The site message `key` in `lang`; keys not in messages.yml come from the tool's catalogs (celerylab.i18n.t)."""
    texts = site_catalog().get(key)
    if texts is None:
        return t(key, lang, **values)
    return texts[normalize(lang) if lang else get_lang()].format(**values)
