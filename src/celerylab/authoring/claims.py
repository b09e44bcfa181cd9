"""A lesson's claims.yml agrees with its claim tests: every test described, in both languages, at a cell that exists."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

from celerylab.authoring.problems import Problem
from celerylab.compiler.errors import SourceError
from celerylab.compiler.model import SourceCell
from celerylab.compiler.parser import parse_file
from celerylab.compiler.sections import headings, source_cells
from celerylab.matrix import results
from celerylab.matrix.catalog import CLAIMS_FILE, split_claim_id
from celerylab.matrix.releases import RELEASES

RELEASE_LINES = [release.line for release in RELEASES]
ENTRY_KEYS = ("cell", "pt", "en", "varies", "no_experiment")  # cell: the id of the lesson.md cell whose section makes
# the claim; no_experiment: {pt, en}, why the claim measures nothing live (authoring.claim_experiments)


def claim_tests(folder: Path) -> dict[str, Path]:
    """{test function name: its file} of the lesson's test_claims_*.py."""
    found = {}
    for path in sorted(folder.glob("test_claims_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                found[node.name] = path
    return found


def described_claims(folder: Path) -> tuple[dict, list[Problem]]:
    """The lesson's claims.yml as read ({} when there is none), or {} and the problem that kept it from being read."""
    path = folder / CLAIMS_FILE
    try:
        described = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    except yaml.YAMLError as error:
        return {}, [Problem(path, None, "dev.p.claims_yaml", {"error": str(error).splitlines()[0]})]
    if not isinstance(described, dict):
        return {}, [Problem(path, None, "dev.p.claims_yaml", {"error": type(described).__name__})]
    return described, []


def claim_problems(folder: Path) -> list[Problem]:
    tests = claim_tests(folder)
    path = folder / CLAIMS_FILE
    if not tests and not path.exists():
        return []
    described, unreadable = described_claims(folder)
    if unreadable:
        return unreadable
    problems = [Problem(tests[name], None, "dev.p.claim_undescribed", {"test": name, "file": CLAIMS_FILE})
                for name in tests if name not in described]
    cells = {cell.id for cell in source_cells(folder / "lesson.md")}
    for name, entry in described.items():
        if name not in tests:
            problems.append(Problem(path, None, "dev.p.claim_unknown", {"test": name}))
            continue
        entry = entry if isinstance(entry, dict) else {}
        unread = sorted(set(entry) - set(ENTRY_KEYS))
        if unread:
            problems.append(Problem(path, None, "dev.p.claim_keys", {"test": name, "keys": ", ".join(unread),
                                                                     "known": ", ".join(ENTRY_KEYS)}))
        if not all(isinstance(entry.get(lang), str) and entry[lang].strip() for lang in ("pt", "en")):
            problems.append(Problem(path, None, "dev.p.claim_text", {"test": name}))
        unknown = [line for line in entry.get("varies", []) if line not in RELEASE_LINES]
        if unknown:
            problems.append(Problem(path, None, "dev.p.claim_varies", {"test": name, "lines": ", ".join(map(str, unknown)),
                                                                       "known": ", ".join(RELEASE_LINES)}))
        cell = entry.get("cell", "")
        if cell and cells and cell not in cells:  # a source that does not parse is reported with its line
            problems.append(Problem(path, None, "dev.p.claim_cell", {"test": name, "cell": cell}))
    return problems


RELEASE_NAMED = re.compile(r"\b5\.[0-9]\b")
HEADING = re.compile(r"^(#{1,3}) (.+)$")


def section_text(cells: list[SourceCell], heading: str, pt_heading: str) -> tuple[str, str]:
    """(pt, en) text of the section under `pt_heading` / the English `heading` (the whole lesson for ""), down to
    the next heading of the same or a higher level."""
    pt = "\n".join(cell.texts["pt"] for cell in cells if "pt" in cell.texts)
    en = "\n".join(cell.texts["en"] for cell in cells if "en" in cell.texts)
    if not heading:
        return pt, en
    return section_of(pt, pt_heading), section_of(en, heading)


def section_of(text: str, heading: str) -> str:
    """From the line `## heading` (or ###) to the next heading of its level or higher; "" when it is not there."""
    lines, taken, level = text.splitlines(), [], None
    for line in lines:
        found = HEADING.match(line)
        if level is None:
            if found and found.group(2) == heading:
                level = len(found.group(1))
                taken.append(line)
        elif found and len(found.group(1)) <= level:
            break
        else:
            taken.append(line)
    return "\n".join(taken)


def since_problems(folder: Path, matrix: dict | None = None) -> list[Problem]:
    """Every claim whose releases observe different things is in a section that names a release (5.x), in both
    languages: the lesson says since when."""
    matrix = results.load() if matrix is None else matrix
    source_path = folder / "lesson.md"
    described, unreadable = described_claims(folder)
    if not source_path.exists() or unreadable:  # claim_problems reports an unreadable claims.yml
        return []
    try:
        cells = parse_file(source_path)
    except SourceError:  # reported with its line by the lesson's own check
        return []
    problems, seen = [], set()
    for claim in results.claim_ids(matrix):
        lesson, test, _ = split_claim_id(claim)
        if lesson != folder.name or test in seen or not results.differs_across(matrix, claim):
            continue
        seen.add(test)
        section = headings(cells).get(str((described.get(test) or {}).get("cell", "")), {})
        pt, en = section_text(cells, section.get("en", ""), section.get("pt", ""))
        if not (RELEASE_NAMED.search(pt) and RELEASE_NAMED.search(en)):
            problems.append(Problem(source_path, None, "dev.p.claim_since",
                                    {"test": test, "section": section.get("en") or "-"}))
    return problems
