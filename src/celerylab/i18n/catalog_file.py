"""A message catalog kept beside the code that prints it (out of the catalogs lesson digests hash): load, look up, format."""
from __future__ import annotations

from functools import cached_property
from pathlib import Path

import yaml

from celerylab.i18n import get_lang, normalize


class CatalogFile:
    """`messages.yml`-shaped file: {key: {pt: ..., en: ...}}, read once."""

    def __init__(self, path: Path):
        self.path = Path(path)

    @cached_property
    def messages(self) -> dict[str, dict[str, str]]:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's where PyYAML has it: ~20x faster
        return yaml.load(self.path.read_text(encoding="utf-8"), Loader=loader) or {}

    def has(self, key: str) -> bool:
        return key in self.messages

    def text(self, key: str, lang: str | None = None, **values: object) -> str:
        """The message `key` in `lang` (default: the language in force), formatted with `values`."""
        texts = self.messages.get(key)
        if texts is None:
            raise KeyError(f"no message {key!r} in {self.path}")
        return texts[normalize(lang) if lang else get_lang()].format(**values)
