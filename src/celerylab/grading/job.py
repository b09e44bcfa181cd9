"""One grading job, run as its own process: execute the restored notebook, then check from outside the kernel.

``python -m celerylab.grading.job SPEC.json RESULTS.jsonl``: SPEC holds the notebook, the
work folder, the exercises to check and the limits; each finished step is appended to
RESULTS as one JSON line, so a crash loses only the step it happened in.
"""
from __future__ import annotations

import ctypes
import json
import os
import sys
from pathlib import Path

import psutil

PR_SET_CHILD_SUBREAPER = 36
# jsonschema (imported by nbformat) builds an IRI grammar at import when rfc3987_syntax is
# installed: about 2 s of CPU per job for a format check grading never uses.
sys.modules.setdefault("rfc3987_syntax", None)


def become_subreaper() -> None:
    """Adopt orphaned descendants (a process the learner daemonized) so they can be found and killed."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def kill_descendants() -> int:
    """SIGKILL every descendant of this process (kernels, workers, strays); returns how many there were."""
    children = psutil.Process().children(recursive=True)
    for child in children:
        try:
            child.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(children, timeout=5)
    return len(children)


def fingerprint() -> list:
    """Identities of what a verdict depends on in this process; any change means tampering."""
    from celerylab.grading import engine

    return [id(x) for x in (engine.CheckRun.expect, engine.CheckRun.__init__, engine.Verdict.passed,
                            engine.Verdict.to_dict, engine.Criterion.__init__, engine.run_check,
                            engine.load_checks, json.dumps, append, Path.open)]


def append(results: Path, record: dict) -> None:
    with results.open("a", encoding="utf-8") as stream:
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")


def run(spec: dict, results: Path) -> None:
    workdir = Path(spec["workdir"])
    if spec.get("execute"):
        import nbformat

        from celerylab.grading.execute import execute

        notebook = nbformat.reads(json.dumps(spec["notebook"]), as_version=4)
        notes = execute(notebook, workdir, spec["cell_timeout"], spec["notebook_timeout"], spec["output_limit"])
        strays = kill_descendants()
        if strays:
            notes.append({"kind": "strays", "cell": None, "count": str(strays)})
        append(results, {"kind": "execution", "notes": notes})
    from celerylab.grading.engine import run_check
    from celerylab.grading.verdicts import JobVerdict

    before = fingerprint()
    for exercise_id in spec["exercises"]:
        append(results, {"kind": "start", "exercise": exercise_id})
        outcome = run_check(exercise_id, workdir, include_hidden=True, root=spec.get("root"))
        kill_descendants()
        tampered = fingerprint() != before  # the learner's module patched the checker while imported
        verdict = JobVerdict(exercise_id, tampered=tampered)
        if not tampered:
            try:
                verdict = JobVerdict.from_record(outcome.to_dict(include_hidden=True), exercise_id)
            except Exception as error:  # criteria the learner's code made unprintable
                verdict.error = f"{type(error).__name__}: {error}"
        append(results, {"kind": "verdict", "exercise": exercise_id, "verdict": verdict.to_dict()})
        if tampered:  # nothing in this process can be trusted now: the runner resumes in a fresh one
            os._exit(0)


def main(argv: list[str] | None = None) -> int:
    spec_path, results_path = (argv if argv is not None else sys.argv[1:])[:2]
    become_subreaper()
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    try:
        run(spec, Path(results_path))
    finally:
        kill_descendants()
    return 0


if __name__ == "__main__":
    sys.exit(main())
