"""The site's cell keys in a cell's metadata: plot alt text (`alt`), a Celery docs link (`docs`), `text_lang` passages."""
from __future__ import annotations

import re

from celerylab.i18n import t

SECTION = re.compile(r"^#{2,3}\s+(.+?)\s*#*\s*$", re.MULTILINE)
QUOTE = re.compile(r"(?:^>.*(?:\n|$))+", re.MULTILINE)
# The scaffold's (and lesson 01's) "explain it in English" cell: its quoted passage is English in every language.
EXPLAIN_IDS = {"explain-en"}


def section_of(markdown: str) -> str | None:
    """The last `##`/`###` heading in a markdown cell, without Markdown emphasis or code marks."""
    found = SECTION.findall(markdown)
    return re.sub(r"[`*_]", "", found[-1]).strip() if found else None


def alt_text(meta: dict, lang: str, section: str | None) -> str:
    """What a plot shows: the cell's `alt` (a string, or {"pt", "en"}); else a pointer to the section it sits in."""
    alt = meta.get("alt")
    if isinstance(alt, dict):
        alt = alt.get(lang)
    if isinstance(alt, str) and alt.strip():
        return " ".join(alt.split())
    return t("site.output.plot_alt", lang, section=section) if section else t("site.output.plot_alt_plain", lang)


def docs_link(meta: dict, lang: str) -> str:
    """A line linking the official Celery documentation named by the cell's `docs` key, or ""."""
    url = meta.get("docs")
    if not (isinstance(url, str) and url.startswith("https://")):
        return ""
    return f"**{t('site.lesson.docs', lang)}:** [{url}]({url})"


def text_lang(meta: dict, lang: str) -> str | None:
    """The language a markdown cell's passage is written in, when it differs from the page's."""
    other = meta.get("text_lang") or ("en" if meta.get("id") in EXPLAIN_IDS else None)
    return other if other in ("pt", "en") and other != lang else None


def mark_language(body: str, other: str) -> str:
    """Mark the cell's quoted passages (or, without any, the whole cell) as written in `other`."""
    if not QUOTE.search(body):
        return f'<div lang="{other}" markdown>\n\n{body}\n\n</div>'

    def wrap(match: re.Match) -> str:
        inner = "\n".join(re.sub(r"^> ?", "", line) for line in match.group(0).rstrip("\n").split("\n"))
        return f'<blockquote lang="{other}" markdown>\n\n{inner}\n\n</blockquote>\n'

    return QUOTE.sub(wrap, body)
