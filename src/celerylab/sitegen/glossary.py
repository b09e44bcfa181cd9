"""The PT-EN glossary page: seed terms from the course notes plus the glossary tables found in lesson notebooks."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from celerylab.course import LESSONS_DIR
from celerylab.i18n import t
from celerylab.sitegen.nb_outputs import text_of

SEED = Path(__file__).with_name("glossary_seed.yml")
PT_NAMES = {"pt", "português", "portugues", "pt-br"}
EN_NAMES = {"en", "english", "inglês", "ingles"}
ROW = re.compile(r"^\s*\|(.+)\|\s*$")
PAREN = re.compile(r"\s*\([^)]*\)")


@dataclass
class Term:
    """One glossary entry: the term in both languages, what it means, and the lessons using it."""

    pt: str
    en: str
    about: dict = field(default_factory=dict)
    lessons: list[str] = field(default_factory=list)


def _plain(cell: str) -> str:
    return cell.strip().strip("*_`").strip()


def _cells(line: str) -> list[str]:
    match = ROW.match(line)
    return [_plain(cell) for cell in re.split(r"(?<!\\)\|", match.group(1))] if match else []


def tables_in(markdown: str) -> list[tuple[str, str]]:
    """(pt, en) pairs from every Markdown table whose first two header cells name PT and EN."""
    pairs: list[tuple[str, str]] = []
    lines = markdown.splitlines()
    for number, line in enumerate(lines[:-1]):
        head = [cell.lower() for cell in _cells(line)]
        if len(head) < 2 or not re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[number + 1]):
            continue
        if head[0] in PT_NAMES and head[1] in EN_NAMES:
            flip = False
        elif head[0] in EN_NAMES and head[1] in PT_NAMES:
            flip = True
        else:
            continue
        for row in lines[number + 2:]:
            cells = _cells(row)
            if len(cells) < 2:
                break
            first, second = cells[0], cells[1]
            if first and second:
                pairs.append((second, first) if flip else (first, second))
    return pairs


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _keys(pt: str, en: str) -> list[str]:
    """Ways to recognise the same term: either language, case and any "(explanation)" aside."""
    return [f"{lang}:{PAREN.sub('', text).strip().casefold()}" for lang, text in (("pt", pt), ("en", en))]


def seed_entries(lessons_dir: Path = LESSONS_DIR) -> list[dict]:
    """The course notes' seed terms, then each lesson folder's own ``glossary.yml`` (same shape)."""
    entries: list[dict] = []
    for path in [SEED, *sorted(lessons_dir.glob("*/glossary.yml"))]:
        entries += yaml.safe_load(path.read_text(encoding="utf-8")) or []
    return entries


def gather(notebooks: list[tuple[str, dict]]) -> list[Term]:
    """Seed terms merged with the (stem, notebook) glossary tables; a term matching a seed entry joins it."""
    terms = [Term(item["pt"], item["en"], item.get("about") or {}) for item in seed_entries()]
    known = {key: term for term in terms for key in _keys(term.pt, term.en)}
    for stem, nb in notebooks:
        for cell in nb.get("cells") or []:
            if cell.get("cell_type") != "markdown":
                continue
            for pt, en in tables_in(text_of(cell.get("source", ""))):
                keys = _keys(pt, en)
                term = next((known[key] for key in keys if key in known), None)
                if term is None:
                    term = Term(_capital(pt), _capital(en))
                    terms.append(term)
                known.update({key: term for key in keys})
                if stem not in term.lessons:
                    term.lessons.append(stem)
    return terms


def _sort_key(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def glossary_page(terms: list[Term], lang: str, lesson_link: str = "lessons/{stem}.md") -> str:
    """The glossary page in `lang`, sorted by the term in that language."""
    other = "en" if lang == "pt" else "pt"
    lines = [f"# {t('site.glossary.title', lang)}", "", t("site.glossary.intro", lang), "",
             f"| {t('site.glossary.col_term', lang)} | {t('site.glossary.col_other', lang)} "
             f"| {t('site.glossary.col_meaning', lang)} | {t('site.glossary.col_lessons', lang)} |",
             "|---|---|---|---|"]
    for term in sorted(terms, key=lambda item: _sort_key(getattr(item, lang))):
        links = ", ".join(f"[{stem.split('_', 1)[0]}]({lesson_link.format(stem=stem)})" for stem in term.lessons)
        lines.append(f"| **{_cell(getattr(term, lang))}** | {_cell(getattr(term, other))} "
                     f"| {_cell(term.about.get(lang, ''))} | {links} |")
    return "\n".join(lines) + "\n"
