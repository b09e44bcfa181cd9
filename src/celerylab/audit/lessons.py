"""Which lesson shows each rule live: the lesson -> rule ids mapping and each rule's link to its section."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

# One base for every link. The site serves Portuguese at its root and English under en/, lesson pages at
# lessons/NN_slug/; a deployment with a known host sets this to "https://host/" and every link follows.
SITE_BASE_URL = ""
LESSONS_DIR = Path(__file__).resolve().parents[1] / "lessons"
SECTION_HEADING = re.compile(r"^#{2,3} (.+)$", re.M)  # the sections a page links to (## and ###)

# lesson folder -> {rule id: the English heading of the section that shows it ("" for the page itself)}.
LESSON_RULES: dict[str, dict[str, str]] = {
    "l01_retries": {
        "CL301": "`autoretry_for=(Exception,)`: retrying what will never work",
        "CL302": "The other options in the *Tasks* guide",
        "CL303": "3. Retry mechanics, measured",
        "CL304": "The other options in the *Tasks* guide",
        "CL305": "The other options in the *Tasks* guide",
        "CL306": "The other options in the *Tasks* guide",
        "CL307": "A task sent before the commit",
        "CL308": "The notes' `except MaxRetriesExceededError`",
    },
    "l02_workers": {
        "CL201": "7. Time limits: who enforces them",
        "CL202": "7. Time limits: who enforces them",
        "CL203": "7. Time limits: who enforces them",
        "CL204": "7. Time limits: who enforces them",
        "CL205": "7. Time limits: who enforces them",
        "CL401": "6. The duplicate users report most: longer than the visibility timeout",
        "CL402": "6. The duplicate users report most: longer than the visibility timeout",
        "CL405": "3. Only the child process dies",
        "CL407": "8. The same SIGKILL on RabbitMQ",
    },
    "l03_silent_defects": {
        "CL101": "Catching any unknown key",
        "CL102": "1. Misspelled settings",
        "CL103": "The notes' fix: `task_annotations`",
        "CL104": "2. The task the worker never registered",
        "CL105": "2. The task the worker never registered",
        "CL106": "The notes' fix: `task_annotations`",
        "CL107": "Why not pickle",
        "CL108": "Why not pickle",
        "CL109": "2. The task the worker never registered",
        "CL110": "",
        "CL111": "1. Misspelled settings",
        "CL112": "",
        "CL113": "3. Arguments that are not JSON",
        "CL114": "What `autodiscover_tasks` really finds",
        "CL115": "2. The task the worker never registered",
        "CL116": "What `autodiscover_tasks` really finds",
        "CL117": "1. Misspelled settings",
        "CL118": "",
        "CL119": "Why not pickle",
        "CL701": "2. The task the worker never registered",
        "CL702": "2. The task the worker never registered",
    },
    "l04_results": {
        "CL501": "When results never expire",
        "CL502": "2. The incident: \"it's still in the queue\"",
        "CL503": "2. The incident: \"it's still in the queue\"",
        "CL504": "How `result_expires` becomes a TTL",
        "CL505": "`STARTED` only with `task_track_started`",
        "CL506": "`STARTED` only with `task_track_started`",
        "CL507": "A running task, without and with `terminate`",
        "CL508": "When results never expire",
    },
    "l05_beat": {
        "CL601": "1. Schedules, computed by Celery itself",
        "CL602": "Daylight saving: the hour that does not exist and the hour that happens twice",
        "CL603": "3. Defences",
        "CL605": "Daylight saving: the hour that does not exist and the hour that happens twice",
        "CL604": "3a. A task made idempotent by its period",
        "CL606": "1. Schedules, computed by Celery itself",
    },
    "l06_architecture": {
        "CL403": "3. Prefetch starvation: short tasks stuck behind a long one",
        "CL404": "3. Prefetch starvation: short tasks stuck behind a long one",
    },
    "l07_resilience": {
        "CL406": "2. What the producer sees: `.delay()` with the broker down",
    },
    "l08_rabbitmq": {
        "CL408": "1. The `acks_late` task longer than `consumer_timeout`",
        "CL409": "4. Quorum queues and Celery's native delayed delivery",
    },
}

# Lessons that show a rule again in another setting: their pages list it too; a finding links to LESSON_RULES'.
ALSO_IN: dict[str, dict[str, str]] = {
    "l02_workers": {
        "CL403": "2. What decides that time on Redis",
        "CL404": "2. What decides that time on Redis",
        "CL406": "",
    },
    "l06_architecture": {
        "CL201": "Always set time limits",
        "CL204": "Always set time limits",
        "CL701": "2. Queues and routing: the e-mail that does not wait for the report",
    },
    "l07_resilience": {
        "CL501": "5. The result backend that grows",
    },
}


def taught_in(lesson: str) -> dict[str, str]:
    """Every rule `lesson` shows live, first or again: {rule id: English heading of its section}."""
    return {**ALSO_IN.get(lesson, {}), **LESSON_RULES.get(lesson, {})}


def lesson_of(rule_id: str) -> str:
    """The lesson folder that shows `rule_id` ("" for the run's own findings)."""
    return next((lesson for lesson, rules in LESSON_RULES.items() if rule_id in rules), "")


def page(lesson: str) -> str:
    """`l03_silent_defects` -> `03_silent_defects`, the page's name on the site."""
    return lesson[1:]


@lru_cache(maxsize=None)
def headings(lesson: str) -> dict[str, str]:
    """English heading -> Portuguese heading of the same cell, read from the lesson's lesson.md."""
    return headings_in(LESSONS_DIR / lesson / "lesson.md")


def headings_in(path: Path) -> dict[str, str]:
    """English heading -> Portuguese heading of the same cell, in the lesson source at `path` ({} if none, or if the
    source does not parse: `celerylab dev check` reports that)."""
    from celerylab.compiler.errors import SourceError
    from celerylab.compiler.parser import parse_file

    try:
        return headings_of(parse_file(path)) if path.exists() else {}
    except SourceError:
        return {}


def headings_of(cells) -> dict[str, str]:
    """English heading -> Portuguese heading of the same cell, among parsed lesson cells (compiler SourceCells)."""
    pairs: dict[str, str] = {}
    for cell in cells:
        if cell.kind == "markdown" and {"pt", "en"} <= set(cell.texts):
            pairs.update(zip(SECTION_HEADING.findall(cell.texts["en"]), SECTION_HEADING.findall(cell.texts["pt"])))
    return pairs


def anchor(heading: str) -> str:
    """The id mkdocs' toc gives `heading` (the site builds its pages with it); "" without markdown."""
    try:
        import markdown
    except ImportError:  # pragma: no cover - markdown ships with mkdocs, a course dependency
        return ""
    converter = markdown.Markdown(extensions=["toc"])
    converter.convert(f"## {heading}\n")
    return converter.toc_tokens[0]["id"] if converter.toc_tokens else ""


def lesson_url(rule_id: str, lang: str = "pt") -> str:
    """The lesson page (and section) that shows `rule_id` live, in `lang`; "" when no lesson does."""
    lesson = lesson_of(rule_id)
    if not lesson:
        return ""
    url = f"{SITE_BASE_URL}{'en/' if lang == 'en' else ''}lessons/{page(lesson)}/"
    return url + section_anchor(lesson, LESSON_RULES[lesson][rule_id], lang)


def section_anchor(lesson: str, heading: str, lang: str) -> str:
    """`#id` of the section `heading` (English) of `lesson`'s page in `lang`; "" for the page (or a renamed section)."""
    pairs = headings(lesson)
    if not heading or heading not in pairs:  # a renamed section: the page, never a dead anchor
        return ""
    found = anchor(heading if lang == "en" else pairs[heading])
    return f"#{found}" if found else ""  # without markdown (an audit-only install): the page, never a bare "#"
