"""The light audit (packages/audit) on each Celery release line, by hand: install size and time, first-run time,
and every sample app's findings against the course's own Celery (tests/audit/audit_apps, run with the course's
`celerylab audit` as the reference).

    .venv/bin/python benchmarks/audit_celery_versions.py [--lines 5.3 5.4 5.5 5.6 5.7] [--python python3.11]

Each line gets a fresh virtualenv with the light wheel and `celery[redis]==LINE.*` with the same line of kombu, as a
project pinning that Celery has: installed with pip, as pre-commit installs a hook's environment.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ROOT / "tests" / "audit"
SKIP = {"__init__", "base", "libraries"}   # helpers of the sample apps, no app of their own


def sample_apps() -> list[str]:
    return sorted(f"audit_apps.{path.stem}" for path in (APPS / "audit_apps").glob("*.py") if path.stem not in SKIP)


# Run inside the environment under test: every sample app audited in one interpreter (the loader forgets each
# app's modules before the next), each as (exit status, sorted findings and undecided ones).
DRIVER = """
import json, sys
from celerylab.audit.api import audit
from celerylab.audit.loader import LoadError
from celerylab.i18n import set_lang
set_lang("en")
out = {}
for app in sys.argv[1:]:
    try:
        report = audit(app, path=".")
    except LoadError:
        out[app] = [2, []]
        continue
    rows = sorted([f.rule.id, f.subject, f.hit.file, f.hit.line] for f in report.findings + report.unknown)
    rows += sorted(["error", rule_id, error.splitlines()[0][:120], 0] for rule_id, error in report.errors)
    out[app] = [report.exit_status(), rows]
print(json.dumps(out))
"""


def audit_all(python: str, apps: list[str]) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([python, "-c", DRIVER, *apps], cwd=APPS, env=env, capture_output=True, text=True,
                          timeout=1800)
    if done.returncode:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def first_run(home: Path) -> float:
    """A pre-commit-like first run: the command on a fresh environment (no bytecode cached yet), one clean app."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    started = time.monotonic()
    subprocess.run([str(home / "bin" / "celerylab-audit"), "-A", "audit_apps.clean", "--lang", "en"], cwd=APPS,
                   env=env, capture_output=True, timeout=300)
    return time.monotonic() - started


def folder_size(path: Path) -> int:
    return sum(each.stat().st_size for each in path.rglob("*") if each.is_file() and not each.is_symlink())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", nargs="+", default=["5.3", "5.4", "5.5", "5.6", "5.7"])
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    apps = sample_apps()
    reference = audit_all(str(ROOT / ".venv" / "bin" / "python"), apps)
    with tempfile.TemporaryDirectory() as tmp:
        wheels = Path(tmp) / "wheels"
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels),
                        str(ROOT / "packages" / "audit")], check=True, cwd=tmp)
        [wheel] = wheels.glob("celerylab_audit-*.whl")
        print(f"wheel {wheel.name}: {wheel.stat().st_size / 1e3:.0f} kB; {len(apps)} sample apps")
        for line in args.lines:
            home = Path(tmp) / f"v{line}"
            subprocess.run([args.python, "-m", "venv", str(home)], check=True)
            base = folder_size(home)
            started = time.monotonic()
            subprocess.run([str(home / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                            str(wheel), f"celery[redis]=={line}.*", f"kombu=={line}.*"], check=True)
            installed = time.monotonic() - started
            size = folder_size(home) - base
            versions = subprocess.run([str(home / "bin" / "python"), "-c",
                                       "import celery, kombu; print(celery.__version__, kombu.__version__)"],
                                      capture_output=True, text=True, check=True).stdout.split()
            first = first_run(home)
            results = audit_all(str(home / "bin" / "python"), apps)
            differ = {app: {"reference": reference[app], "got": results[app]} for app in apps
                      if results[app] != reference[app]}
            print(f"Celery {versions[0]} (kombu {versions[1]}): install {installed:.1f} s, {size / 1e6:.1f} MB, "
                  f"first run {first:.2f} s; {len(apps) - len(differ)}/{len(apps)} apps as on the course's Celery")
            for app, both in differ.items():
                print(f"  {app}: exit/findings {both['got']} where the course's Celery gives {both['reference']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
