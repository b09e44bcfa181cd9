"""The audit's own strings (audit/messages.yml), kept out of the catalogs that lesson digests hash."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from celerylab.i18n import get_lang, normalize

# celerylab/i18n/*.yml is hashed into every lesson's source digest: the audit's words reach no notebook,
# so they live beside the audit code, as the site's do (celerylab.sitegen.text).
MESSAGES = Path(__file__).with_name("messages.yml")


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, where PyYAML was built with it: ~20x faster
    return yaml.load(MESSAGES.read_text(encoding="utf-8"), Loader=loader) or {}


def has(key: str) -> bool:
    return key in catalog()


def at(key: str, lang: str | None = None, **values: object) -> str:
    """The audit message `key` in `lang` (default: the language in force), formatted with `values`."""
    texts = catalog().get(key)
    if texts is None:
        raise KeyError(f"no message {key!r} in {MESSAGES.name}")
    return texts[normalize(lang) if lang else get_lang()].format(**values)
