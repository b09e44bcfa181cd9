"""The site's release page, generated from the lessons' observed.json: each claim, a short status per release, details folded."""
from __future__ import annotations

from celerylab.course import LESSONS_DIR, Lesson
from celerylab.i18n import t
from celerylab.matrix import results
from celerylab.matrix.catalog import describe, split_claim_id, varies
from celerylab.matrix.report import describe_result
from celerylab.sitegen.audit_pages import section_link

MATRIX_PAGE = "releases.md"
VERSION_ROWS = ("celery", "kombu", "billiard", "redis", "redis-server")


def cell_text(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def claim_label(claim: str, lang: str, titles: dict[str, str]) -> str:
    """The claim's sentence, linked to the section that shows it; its test's name when claims.yml lacks it."""
    lesson, base, param = split_claim_id(claim)
    described = describe(claim)
    text = described.text(lang) if described else f"`{base}`"
    if param:
        text += f" (`{param}`)"
    if described is None or lesson[1:] not in titles:
        return cell_text(text)
    folder = LESSONS_DIR / lesson
    return f"[{cell_text(text)}]({section_link(Lesson(lesson, folder), described.cell, lang, 'lessons')})"


def versions_table(matrix: dict, lang: str) -> list[str]:
    lines = list(matrix["releases"])
    rows = [f"| {t('site.releases.package', lang)} | " + " | ".join(f"Celery {line}" for line in lines) + " |",
            "|---|" + "---|" * len(lines)]
    for name in VERSION_ROWS:
        rows.append(f"| `{'redis-py' if name == 'redis' else name}` | " + " | ".join(matrix["releases"][line]["versions"].get(name, "-") for line in lines) + " |")
    return rows


MARKS = {"passed": "✔", "failed": "✘", "error": "!", "skipped": "–"}


def short_status(matrix: dict, claim: str, line: str, newest: tuple, lang: str) -> str:
    """`5.6 ✘ does not hold`: a mark and one word per release, bold where it differs from the newest release."""
    result = results.cell(matrix, line, claim)
    outcome = result["outcome"] if result else "absent"  # the failure line is in the folded details
    word, mark = t(f"matrix.cell.{outcome}", lang), MARKS.get(outcome, "·")
    text = f"{mark} {word}" + (" ≈" if varies(claim, line) else "")
    return f"{line} **{text}**" if results.verdict(result) != newest else f"{line} {text}"


def claim_block(matrix: dict, claim: str, lang: str, titles: dict[str, str]) -> list[str]:
    """A claim as a reader wants it: the sentence full width, one short status per release, the details folded.

    Search finds the claim by its sentence; the folded observations (three fifths of the page's text) stay out of
    the search index, which every page of the site loads."""
    lines = list(matrix["releases"])
    newest = results.verdict(results.cell(matrix, lines[-1], claim))
    mark = "≠ " if results.differs_across(matrix, claim) else ""
    status = " · ".join(short_status(matrix, claim, line, newest, lang) for line in lines)
    details = [f"- **Celery {line}**: {cell_text(describe_result(results.cell(matrix, line, claim), lang))}"
               + (f" {t('site.releases.varies', lang)}" if varies(claim, line) else "") for line in lines]
    return [f"{mark}{claim_label(claim, lang, titles)}", "",
            '<details class="cl-observed" data-search-exclude markdown="1">',
            f'<summary markdown="span">{status}</summary>', "", *details, "", "</details>", ""]


def releases_page(lang: str, titles: dict[str, str], matrix: dict | None = None) -> str:
    """The whole page in `lang`; `titles` maps a lesson's stem (`01_retries`) to its title in that language."""
    matrix = results.load() if matrix is None else matrix
    lines = [f"# {t('site.releases.title', lang)}", "", t("site.releases.intro", lang), ""]
    if not matrix.get("releases"):
        return "\n".join([*lines, t("site.releases.empty", lang), ""])
    claims = results.claim_ids(matrix)
    differing = [claim for claim in claims if results.differs_across(matrix, claim)]
    lines += [t("site.releases.environment", lang, python=matrix.get("python", "-")), "",
              *versions_table(matrix, lang), "",
              t("site.releases.summary", lang, claims=len(claims), differing=len(differing)), "",
              t("site.releases.legend", lang), ""]
    by_lesson: dict[str, list[str]] = {}
    for claim in claims:
        by_lesson.setdefault(split_claim_id(claim)[0], []).append(claim)
    if differing:
        lines += [f"## {t('site.releases.changes', lang)}", ""]
        for claim in differing:
            lines += claim_block(matrix, claim, lang, titles)
        lines += [f"## {t('site.releases.all', lang)}", ""]
    for lesson, lesson_claims in by_lesson.items():
        stem = lesson[1:]
        lines += [f"### {titles.get(stem, stem)}", ""]
        for claim in lesson_claims:
            lines += claim_block(matrix, claim, lang, titles)
    return "\n".join(lines)
