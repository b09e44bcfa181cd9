"""The site's release page, generated from matrix/observed.json: one row per claim, one column per Celery release."""
from __future__ import annotations

from celerylab.matrix import results
from celerylab.matrix.catalog import describe, split_claim_id, varies
from celerylab.matrix.report import describe_result
from celerylab.sitegen.audit_pages import section_link
from celerylab.sitegen.text import st

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
    return f"[{cell_text(text)}]({section_link(lesson, described.section, lang, 'lessons')})"


def versions_table(matrix: dict, lang: str) -> list[str]:
    lines = list(matrix["releases"])
    rows = [f"| {st('site.releases.package', lang)} | " + " | ".join(f"Celery {line}" for line in lines) + " |",
            "|---|" + "---|" * len(lines)]
    for name in VERSION_ROWS:
        rows.append(f"| `{'redis-py' if name == 'redis' else name}` | " + " | ".join(matrix["releases"][line]["versions"].get(name, "-") for line in lines) + " |")
    return rows


def claim_row(matrix: dict, claim: str, lang: str, titles: dict[str, str]) -> str:
    """`| ≠ claim | cell | cell |`: cells that differ from the newest release's are bold, the row marked ≠."""
    lines = list(matrix["releases"])
    newest = results.verdict(results.cell(matrix, lines[-1], claim))
    cells = []
    for line in lines:
        result = results.cell(matrix, line, claim)
        text = cell_text(describe_result(result, lang))
        text = f"**{text}**" if results.verdict(result) != newest else text
        cells.append(f"{text} {st('site.releases.varies', lang)}" if varies(claim, line) else text)
    mark = "≠ " if results.differs_across(matrix, claim) else ""
    return f"| {mark}{claim_label(claim, lang, titles)} | " + " | ".join(cells) + " |"


def releases_page(lang: str, titles: dict[str, str], matrix: dict | None = None) -> str:
    """The whole page in `lang`; `titles` maps a lesson's stem (`01_retries`) to its title in that language."""
    matrix = results.load() if matrix is None else matrix
    lines = [f"# {st('site.releases.title', lang)}", "", st("site.releases.intro", lang), ""]
    if not matrix.get("releases"):
        return "\n".join([*lines, st("site.releases.empty", lang), ""])
    claims = results.claim_ids(matrix)
    differing = [claim for claim in claims if results.differs_across(matrix, claim)]
    lines += [st("site.releases.environment", lang, python=matrix.get("python", "-")), "",
              *versions_table(matrix, lang), "",
              st("site.releases.summary", lang, claims=len(claims), differing=len(differing)), "",
              st("site.releases.legend", lang), ""]
    by_lesson: dict[str, list[str]] = {}
    for claim in claims:
        by_lesson.setdefault(split_claim_id(claim)[0], []).append(claim)
    header = f"| {st('site.releases.claim', lang)} | " + " | ".join(matrix["releases"]) + " |"
    rule = "|---|" + "---|" * len(matrix["releases"])
    if differing:
        lines += [f"## {st('site.releases.changes', lang)}", "", header, rule,
                  *(claim_row(matrix, claim, lang, titles) for claim in differing), "",
                  f"## {st('site.releases.all', lang)}", ""]
    for lesson, lesson_claims in by_lesson.items():
        stem = lesson[1:]
        lines += [f"### {titles.get(stem, stem)}", "", header, rule,
                  *(claim_row(matrix, claim, lang, titles) for claim in lesson_claims), ""]
    return "\n".join(lines)
