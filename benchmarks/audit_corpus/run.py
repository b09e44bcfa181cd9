"""Re-run the audit corpus and print the precision of its defect findings against the judgments (by hand).

    python benchmarks/audit_corpus/run.py [--corpus /work/corpus] [--only NAME ...] [--from-json]

Each project of projects.yml is checked out at its commit in CORPUS/<name> and has a virtualenv CORPUS/.venvs/<name>
with its own requirements and the light wheel (README.md here says how). The audit runs as the project's team would
run it: `celerylab-audit -A APP --format json`, with the project's environment, once plain and once with --scan over
the project's sources. Every defect finding is looked up in judgments.yml by (rule, subject): true (the defect is
there and bites), harmless (what it says is there, and nothing follows), debatable, false (it is not there).
Precision = true / (true + harmless + false); debatable findings are counted apart (both bounds are printed).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
VERDICTS = ("true", "harmless", "debatable", "false")


def audit(corpus: Path, project: dict, scan: bool, from_json: bool) -> tuple[int | None, dict | None]:
    name = project["name"]
    saved = corpus / ".out" / f"{name}{'.scan' if scan else ''}.json"
    if from_json:
        return None, json.loads(saved.read_text()) if saved.exists() else None
    cwd = corpus / name / project.get("cwd", ".")
    command = [str(corpus / ".venvs" / name / "bin" / "celerylab-audit"), "-A", project["app"], "--format", "json",
               "--lang", "en"]
    if scan:
        command += ["--scan", str(cwd / project.get("scan", "."))]
    env = {**{key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")},
           **{key: str(value) for key, value in (project.get("env") or {}).items()}}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
    saved.parent.mkdir(exist_ok=True)
    saved.write_text(done.stdout)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("CELERYLAB_CORPUS", "/work/corpus")))
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--from-json", action="store_true", help="read the last run's saved reports, audit nothing")
    args = parser.parse_args()
    projects = yaml.safe_load((HERE / "projects.yml").read_text())
    judged = yaml.safe_load((HERE / "judgments.yml").read_text()) or {}
    totals = dict.fromkeys((*VERDICTS, "unjudged"), 0)
    print(f"{'project':<22} {'celery':<7} {'exit':>4} {'scan':>4}  defects  true harmless debatable false unjudged")
    for project in projects:
        if args.only and project["name"] not in args.only:
            continue
        # YAML reads a bare true/false as a boolean: the verdict is its word either way
        verdicts = {(row["rule"], row["subject"]): str(row["verdict"]).lower() for row in judged.get(project["name"], [])}
        status, plain = audit(args.corpus, project, False, args.from_json)
        scan_status, scanned = audit(args.corpus, project, True, args.from_json)
        if plain is None or plain.get("error"):
            print(f"{project['name']:<22} did not load: {project.get('note', '')}")
            continue
        defects = {(f["rule"], f["subject"]) for report in (plain, scanned or {}) for f in report.get("findings", [])
                   if f["category"] == "defect"}
        counts = dict.fromkeys((*VERDICTS, "unjudged"), 0)
        for key in sorted(defects):
            verdict = verdicts.get(key, "unjudged")
            counts[verdict] += 1
            if verdict == "unjudged":
                print(f"    unjudged: {key}")
        for key, value in counts.items():
            totals[key] += value
        print(f"{project['name']:<22} {project.get('celery', ''):<7} {status if status is not None else '-':>4} "
              f"{scan_status if scan_status is not None else '-':>4}  {len(defects):>7}  {counts['true']:>4} "
              f"{counts['harmless']:>8} {counts['debatable']:>9} {counts['false']:>5} {counts['unjudged']:>8}")
    decided = totals["true"] + totals["harmless"] + totals["false"]
    if decided:
        low = totals["true"] / (decided + totals["debatable"])
        high = (totals["true"] + totals["debatable"]) / (decided + totals["debatable"])
        print(f"precision of defect findings: {totals['true'] / decided:.0%} ({totals['true']}/{decided}; "
              f"{low:.0%} with every debatable one false, {high:.0%} with every one true); unjudged: "
              f"{totals['unjudged']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
