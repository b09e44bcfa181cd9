"""Split the search index the i18n plugin merged into one index per language, so search stays in the reader's language."""
from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

INDEX = Path("search") / "search_index.json"
TAG = re.compile(r"<[^>]+>")
PRE = re.compile(r"<pre\b.*?</pre>", re.S)  # code cells and their outputs: the prose is what search covers
WORD = re.compile(r"\w+")
# An extra index field holding the page's accented words without their accents: Material's search worker indexes
# every field named in config.fields, so "idempotencia" finds "idempotência"; results still show the real text.
FOLDED = "folded"


def fold(text: str) -> str:
    """`text` without diacritics (ç -> c, ê -> e)."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def folded_words(doc: dict) -> str:
    """The accent-free spelling of every accented word in a search document's title and text."""
    words = WORD.findall(TAG.sub(" ", f"{doc.get('title', '')} {doc.get('text', '')}").lower())
    return " ".join(sorted({fold(word) for word in words if fold(word) != word}))


def prose_only(doc: dict) -> dict:
    """A search document without its code blocks (inline code stays), with its accent-free words added.

    Code cells and outputs were half of every lesson's index, loaded on every first visit.
    """
    doc = dict(doc, text=PRE.sub(" ", doc.get("text", "")))
    doc[FOLDED] = folded_words(doc)
    return doc


def _language_of(location: str, default: str, others: list[str]) -> str:
    first = location.split("/", 1)[0].split("#", 1)[0]
    return first if first in others else default


def split_search_index(site_dir: Path, default: str, languages: list[str]) -> dict[str, int]:
    """Rewrite `search/search_index.json` per language (others under `<lang>/`); returns entries per language."""
    merged_path = site_dir / INDEX
    if not merged_path.is_file():
        return {}
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    if merged.get("config", {}).get("celerylab_split"):
        return {}
    others = [lang for lang in languages if lang != default]
    counts: dict[str, int] = {}
    for lang in [default, *others]:
        prefix = "" if lang == default else f"{lang}/"
        docs = [prose_only(dict(doc, location=doc["location"][len(prefix):]))
                for doc in merged.get("docs", []) if _language_of(doc["location"], default, others) == lang]
        fields = dict(merged.get("config", {}).get("fields") or {}, **{FOLDED: {"boost": 1.0}})
        config = dict(merged.get("config", {}), lang=[lang], fields=fields, celerylab_split=True)
        target = site_dir / prefix / INDEX
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({"config": config, "docs": docs}, ensure_ascii=False, separators=(",", ":")),
                          encoding="utf-8")
        counts[lang] = len(docs)
    return counts
