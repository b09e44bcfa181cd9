"""A lesson's claims.yml agrees with its claim tests: every test described, in both languages, at a section that exists."""
from __future__ import annotations

import ast
from pathlib import Path

import yaml

from celerylab.audit.lessons import headings_in
from celerylab.authoring.problems import Problem
from celerylab.matrix.catalog import CLAIMS_FILE
from celerylab.matrix.releases import RELEASES

RELEASE_LINES = [release.line for release in RELEASES]


def claim_tests(folder: Path) -> dict[str, Path]:
    """{test function name: its file} of the lesson's test_claims_*.py."""
    found = {}
    for path in sorted(folder.glob("test_claims_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                found[node.name] = path
    return found


def claim_problems(folder: Path) -> list[Problem]:
    tests = claim_tests(folder)
    path = folder / CLAIMS_FILE
    if not tests and not path.exists():
        return []
    try:
        described = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else {}
    except yaml.YAMLError as error:
        return [Problem(path, None, "dev.p.claims_yaml", {"error": str(error).splitlines()[0]})]
    if not isinstance(described, dict):
        return [Problem(path, None, "dev.p.claims_yaml", {"error": type(described).__name__})]
    problems = [Problem(tests[name], None, "dev.p.claim_undescribed", {"test": name, "file": CLAIMS_FILE})
                for name in tests if name not in described]
    sections = headings_in(folder / "lesson.md")
    for name, entry in described.items():
        if name not in tests:
            problems.append(Problem(path, None, "dev.p.claim_unknown", {"test": name}))
            continue
        entry = entry if isinstance(entry, dict) else {}
        if not all(isinstance(entry.get(lang), str) and entry[lang].strip() for lang in ("pt", "en")):
            problems.append(Problem(path, None, "dev.p.claim_text", {"test": name}))
        unknown = [line for line in entry.get("varies", []) if line not in RELEASE_LINES]
        if unknown:
            problems.append(Problem(path, None, "dev.p.claim_varies", {"test": name, "lines": ", ".join(map(str, unknown)),
                                                                       "known": ", ".join(RELEASE_LINES)}))
        section = entry.get("section", "")
        if section and section not in sections:
            problems.append(Problem(path, None, "dev.p.claim_section", {"test": name, "section": section}))
    return problems
