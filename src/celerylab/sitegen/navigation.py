"""Pages and links around the lessons: the home page's lesson list, previous/next links, the course notes explained."""
from __future__ import annotations

import json
import re
from pathlib import Path

from celerylab.i18n import t

HOME_SOURCE = "_home.md"  # hand-written; the generated index.md is this plus the published lessons
LESSONS_MARKER = re.compile(r"^<!-- celerylab:lessons\b.*?-->$", re.MULTILINE)
NOTES = {"pt": (re.compile(r"\bnotas do curso\b"), "../index.md#as-notas-do-curso"),
         "en": (re.compile(r"\bcourse notes\b"), "../index.md#the-course-notes")}
FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1\s*$", re.MULTILINE | re.DOTALL)


def lesson_list(lessons: list[tuple[str, str]], lang: str, folder: str = "lessons") -> str:
    """A numbered list of the lessons, in course order, linked to their pages."""
    lines = [f"1. [{title}]({folder}/{stem}.md)" for stem, title in lessons]
    return "\n".join(lines) if lines else t("site.lessons.none", lang)


def home_page(source: Path, lessons: list[tuple[str, str]], lang: str) -> str:
    """The home page: the hand-written `_home.md` with the published lessons where its marker stands."""
    text = source.read_text(encoding="utf-8")
    block = f"{t('site.home.lessons', lang)}\n\n{lesson_list(lessons, lang)}"
    text = LESSONS_MARKER.sub(lambda _: block, text, count=1) if LESSONS_MARKER.search(text) else f"{text}\n{block}\n"
    return f"---\ntitle: {json.dumps(t('site.nav.home', lang), ensure_ascii=False)}\n---\n\n{text}"


def pager(lessons: list[tuple[str, str]], stem: str, lang: str) -> str:
    """Links to the previous and next lessons in course order ("" for a lone lesson)."""
    stems = [item[0] for item in lessons]
    index = stems.index(stem)
    links = []
    if index > 0:
        links.append(f"← **{t('site.lesson.prev', lang)}:** [{lessons[index - 1][1]}]({lessons[index - 1][0]}.md)")
    if index + 1 < len(lessons):
        links.append(f"**{t('site.lesson.next', lang)}:** [{lessons[index + 1][1]}]({lessons[index + 1][0]}.md) →")
    return "---\n\n" + "  \n".join(links) if links else ""


def explain_notes(markdown: str, lang: str) -> str:
    """Link the first mention of the course notes (outside code) to the home page's section that explains them."""
    pattern, target = NOTES.get(lang, NOTES["en"])
    fenced = [match.span() for match in FENCE.finditer(markdown)]
    for match in pattern.finditer(markdown):
        inside = any(a <= match.start() < b for a, b in fenced)
        if not inside and markdown[:match.start()].count("`") % 2 == 0 and not markdown[match.end():].startswith("]"):
            return f"{markdown[:match.start()]}[{match.group(0)}]({target}){markdown[match.end():]}"
    return markdown
