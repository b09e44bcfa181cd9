"""The matrix's observations: each lesson's claim results per release (`lNN_slug/observed.json`), read together,
merged and compared."""
from __future__ import annotations

import json
import platform
from functools import lru_cache
from pathlib import Path

from celerylab.atomic import write_text
from celerylab.course import LESSONS_DIR
from celerylab.matrix.releases import RELEASES

OBSERVED_FILE = "observed.json"  # in each lesson folder: that lesson's claims, same shape as the whole matrix


def load(source: Path = LESSONS_DIR) -> dict:
    """{"python": ..., "releases": {line: {"versions": ..., "claims": ...}}}: every lesson's observed.json of the
    lessons folder `source` joined (or the one file `source`); an empty matrix when there is none."""
    if source.is_dir():
        return joined([_read(path) for path in sorted(source.glob(f"l[0-9]*/{OBSERVED_FILE}"))])
    return _read(source) if source.exists() else {"python": "", "releases": {}}


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _ordered(releases: dict) -> dict:
    order = [release.line for release in RELEASES]
    return {name: releases[name] for name in sorted(releases, key=lambda name: (name not in order,
                                                                              order.index(name) if name in order else 0, name))}


def joined(parts: list[dict]) -> dict:
    """One matrix of several lessons' matrices: each column's claims together, its versions from the first lesson."""
    releases: dict[str, dict] = {}
    for part in parts:
        lessons = {claim.partition("::")[0] for claim in claim_ids(part)}
        for line, column in part.get("releases", {}).items():
            into = releases.setdefault(line, {"versions": column.get("versions", {}), "digests": {}, "claims": {}})
            into["claims"].update(column.get("claims", {}))
            if column.get("digest"):
                into["digests"].update(dict.fromkeys(lessons, column["digest"]))
    return {"python": next((part["python"] for part in parts if part.get("python")), ""), "releases": _ordered(releases)}


def split(matrix: dict) -> dict[str, dict]:
    """{lesson folder: the matrix of its claims alone}, every column kept with its versions and the lesson's digest."""
    lessons = sorted({claim.partition("::")[0] for claim in claim_ids(matrix)})
    return {lesson: {"python": matrix.get("python", ""),
                     "releases": {line: _lesson_column(column, lesson)
                                  for line, column in matrix.get("releases", {}).items()}}
            for lesson in lessons}


def _lesson_column(column: dict, lesson: str) -> dict:
    digest = column.get("digests", {}).get(lesson)
    return {"versions": column.get("versions", {}), **({"digest": digest} if digest else {}),
            "claims": {claim: result for claim, result in column.get("claims", {}).items()
                       if claim.partition("::")[0] == lesson}}


def digest_of(matrix: dict, line: str, lesson: str) -> str | None:
    """The digest of the inputs `lesson`'s observations on `line` were measured on (None when none is recorded)."""
    return matrix.get("releases", {}).get(line, {}).get("digests", {}).get(lesson)


def merge(matrix: dict, line: str, run: dict) -> dict:
    """`matrix` with `line`'s column replaced by `run`, columns in release order."""
    releases = {**matrix.get("releases", {}), line: run}
    return {"python": platform.python_version(), "releases": _ordered(releases)}


def save(matrix: dict, target: Path = LESSONS_DIR, lessons: list[str] | None = None) -> list[Path]:
    """Write `matrix` to the lessons folder `target`, each lesson's claims to its own observed.json (only `lessons`'
    when given; a lesson without a folder there is left out), or whole to the file `target`. Returns what it wrote."""
    if not target.is_dir():
        _write(matrix, target)
        return [target]
    written = []
    for lesson, part in split(matrix).items():
        if (lessons is None or lesson in lessons) and (target / lesson).is_dir():
            _write(part, target / lesson / OBSERVED_FILE)
            written.append(target / lesson / OBSERVED_FILE)
    return written


def _write(matrix: dict, path: Path) -> None:
    write_text(path, json.dumps(matrix, indent=1, ensure_ascii=False, sort_keys=False) + "\n")


def claim_ids(matrix: dict) -> list[str]:
    """Every claim any release has, in lesson order (claim ids sort by lesson folder first)."""
    return sorted({claim for column in matrix.get("releases", {}).values() for claim in column.get("claims", {})})


def column_claims(matrix: dict, line: str) -> dict[str, dict]:
    """{claim id: result} of `line`'s column ({} when the matrix has no such column)."""
    return matrix.get("releases", {}).get(line, {}).get("claims", {})


def cell(matrix: dict, line: str, claim: str) -> dict | None:
    return column_claims(matrix, line).get(claim)


def verdict(result: dict | None) -> tuple:
    """What a comparison looks at: the outcome and the observed values (the failure's wording may move)."""
    return (None,) if result is None else (result["outcome"], json.dumps(result["observed"], sort_keys=True))


def differences(expected: dict, run: dict, line: str, only: set[str] | None = None,
                lessons: Path = LESSONS_DIR) -> list[tuple[str, dict | None, dict | None]]:
    """(claim id, committed result, this run's result) for every claim whose outcome or observations changed;
    with `only`, among those claims alone (a partial run compares what it ran). A claim skipped because the machine
    lacks a service was not measured: it is not compared (`unmeasured` names it)."""
    from celerylab.matrix.catalog import varies

    absent = unmeasured(run, lessons)
    observed = {claim: result for claim, result in run.get("claims", {}).items() if claim not in absent}
    committed = column_claims(expected, line)
    claims = ({*committed, *observed} if only is None else {*committed, *observed} & only) - set(absent)
    return [(claim, committed.get(claim), observed.get(claim)) for claim in sorted(claims)
            if verdict(committed.get(claim)) != verdict(observed.get(claim))
            and not (claim in committed and claim in observed and varies(claim, line))]


def unmeasured(run: dict, lessons: Path = LESSONS_DIR) -> dict[str, list[str]]:
    """{claim id: the services the machine lacked} of the claims a run skipped for an absent service: those their
    `needs` markers name (`lacks`), or, for a claim that skipped itself at run time (finding no RabbitMQ to connect
    to), those its lesson's lesson.md in `lessons` declares that this machine lacks. Where every need is met, a skip
    is an observation like another."""
    found = {}
    for claim, result in run.get("claims", {}).items():
        lacks = result.get("lacks") or (lesson_lacks(lessons / claim.partition("::")[0] / "lesson.md")
                                        if result.get("outcome") == "skipped" else [])
        if lacks:
            found[claim] = list(lacks)
    return found


@lru_cache(maxsize=None)
def lesson_lacks(source: Path) -> tuple[str, ...]:
    """The needs the lesson source `source` declares (`celerylab doctor`'s list) that this machine lacks (none
    without a source, or with one that does not parse: the lesson's own tests say why); read once per lesson."""
    from celerylab.compiler.errors import SourceError
    from celerylab.compiler.parser import declared_needs
    from celerylab.machine_needs import available

    try:
        needs = declared_needs(source) if source.is_file() else ()
    except SourceError:
        return ()
    return tuple(need for need in needs if not available(need))


def measured(run: dict, previous: dict, lessons: Path = LESSONS_DIR) -> dict:
    """`run` with each unmeasured claim's result replaced by its `previous` one (left out when there is none): a skip
    for an absent service is no observation."""
    absent = unmeasured(run, lessons)
    kept = {claim: previous[claim] for claim in absent if claim in previous}
    claims = {claim: result for claim, result in run.get("claims", {}).items() if claim not in absent}
    return {**run, "claims": dict(sorted({**claims, **kept}.items()))}


def differs_across(matrix: dict, claim: str) -> bool:
    """True when the releases did not all observe the same thing for `claim` (the page highlights the row)."""
    seen = {verdict(cell(matrix, line, claim)) for line in matrix.get("releases", {})}
    return len(seen) > 1
