"""Message catalogs: every user-facing string, in Portuguese and English side by side."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from string import Formatter

import yaml

LANGS = ("pt", "en")
DEFAULT_LANG = "pt"
_current: str | None = None


def normalize(lang: str | None) -> str:
    """Map 'en_US.UTF-8', 'EN', 'pt-BR' and friends to one of LANGS."""
    code = (lang or "").strip().lower()[:2]
    return code if code in LANGS else DEFAULT_LANG


def get_lang() -> str:
    """The language in force: set_lang(), else $CELERYLAB_LANG, else Portuguese."""
    return _current or normalize(os.environ.get("CELERYLAB_LANG"))


def set_lang(lang: str) -> str:
    global _current
    _current = normalize(lang)
    os.environ["CELERYLAB_LANG"] = _current
    return _current


LESSONS_DIR = Path(__file__).resolve().parents[1] / "lessons"


def catalog_files() -> list[Path]:
    """The tool's catalogs (every *.yml beside this module), then each lesson's own messages.yml."""
    return [*sorted(Path(__file__).parent.glob("*.yml")), *sorted(LESSONS_DIR.glob("*/messages.yml"))]


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    """All messages, merged from the tool's catalogs and the lessons' own."""
    merged: dict[str, dict[str, str]] = {}
    for path in catalog_files():
        for key, texts in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).items():
            if key in merged:
                raise ValueError(f"duplicate message key {key!r} in {path.name}")
            merged[key] = texts
    return merged


# Catalogs kept beside the code that prints them, by key prefix. Every lesson's digest hashes i18n/*.yml (what a
# notebook can print); the words of the audit, the site, the matrix, the health check and `collect` reach no
# notebook, so a wording change there re-executes nothing. One lookup, t(), reads them all.
FAMILY_CATALOGS = {"audit.": "audit/messages.yml", "site.": "sitegen/messages.yml",
                   "matrix.": "matrix/messages.yml", "canary.": "deploy/messages.yml",
                   "hub.": "hub/messages.yml"}
PACKAGE = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def family_catalog(prefix: str) -> dict[str, dict[str, str]]:
    """The messages of the catalog kept for keys starting with `prefix` (FAMILY_CATALOGS), read once."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's where PyYAML has it: ~20x faster
    return yaml.load((PACKAGE / FAMILY_CATALOGS[prefix]).read_text(encoding="utf-8"), Loader=loader) or {}


def texts_of(key: str) -> dict[str, str] | None:
    """The {lang: text} of `key`: from its family's catalog when its prefix has one and holds it, else the merged
    catalogs of the tool and the lessons."""
    for prefix in FAMILY_CATALOGS:
        if key.startswith(prefix) and key in family_catalog(prefix):
            return family_catalog(prefix)[key]
    return catalog().get(key)


def has(key: str) -> bool:
    return texts_of(key) is not None


def t(key: str, lang: str | None = None, **values: object) -> str:
    """The message `key` in `lang` (default: the language in force), formatted with `values`, from any catalog."""
    texts = texts_of(key)
    if texts is None:
        raise KeyError(f"no message {key!r} in the catalogs")
    return texts[normalize(lang) if lang else get_lang()].format(**values)


class TranslatedError(Exception):
    """An error whose message is a catalog key, rendered in the language in force when it is shown."""

    def __init__(self, key: str, **values: object):
        self.key, self.values = key, values
        super().__init__(key)

    def __str__(self) -> str:
        return t(self.key, **self.values)


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}
