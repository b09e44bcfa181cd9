"""The matrix's observations: one file of every release's claim results, read, merged and compared."""
from __future__ import annotations

import json
import os
import platform
from pathlib import Path

from celerylab.matrix.releases import RELEASES

OBSERVED = Path(__file__).with_name("observed.json")


def load(path: Path = OBSERVED) -> dict:
    """{"python": ..., "releases": {line: {"versions": ..., "claims": ...}}}; an empty matrix when there is no file."""
    if not path.exists():
        return {"python": "", "releases": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def merge(matrix: dict, line: str, run: dict) -> dict:
    """`matrix` with `line`'s column replaced by `run`, columns in release order."""
    releases = {**matrix.get("releases", {}), line: run}
    order = [release.line for release in RELEASES]
    ordered = {name: releases[name] for name in sorted(releases, key=lambda name: (name not in order,
                                                                                 order.index(name) if name in order else 0, name))}
    return {"python": platform.python_version(), "releases": ordered}


def save(matrix: dict, path: Path = OBSERVED) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(json.dumps(matrix, indent=1, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")
    temporary.replace(path)


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


def differences(expected: dict, run: dict, line: str,
                only: set[str] | None = None) -> list[tuple[str, dict | None, dict | None]]:
    """(claim id, committed result, this run's result) for every claim whose outcome or observations changed;
    with `only`, among those claims alone (a partial run compares what it ran)."""
    from celerylab.matrix.catalog import varies

    committed = column_claims(expected, line)
    observed = run.get("claims", {})
    claims = {*committed, *observed} if only is None else {*committed, *observed} & only
    return [(claim, committed.get(claim), observed.get(claim)) for claim in sorted(claims)
            if verdict(committed.get(claim)) != verdict(observed.get(claim))
            and not (claim in committed and claim in observed and varies(claim, line))]


def differs_across(matrix: dict, claim: str) -> bool:
    """True when the releases did not all observe the same thing for `claim` (the page highlights the row)."""
    seen = {verdict(cell(matrix, line, claim)) for line in matrix.get("releases", {})}
    return len(seen) > 1
