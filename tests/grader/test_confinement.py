"""Learner code in a grading job cannot write the install, the gradebook or the results channel, read solutions,
hidden checks, the submissions, the grader's processes or its environment, reach the network, or take unbounded memory (root on Linux; elsewhere each part is reported missing)."""
from __future__ import annotations

import json
import os
import socket
import uuid
from dataclasses import replace
from pathlib import Path

import pytest
import submissions
from grading_files import COURSE, EXERCISES, FIXTURE_COURSE

import celerylab
from celerylab.grader.intake import Found
from celerylab.grader.job_supervisor import run_job
from celerylab.grader.prepare import Limits, prepare
from celerylab.grader.sandbox.confine import OBSERVED

pytestmark = [pytest.mark.live, pytest.mark.timeout(300)]
SOLUTIONS = EXERCISES.parent / "solutions"
JOB_MEMORY = 1200 * 2**20  # room for the job's own stack; the attack's three 500 MiB processes do not fit

ATTACKS = '''
import glob, mmap, os, socket
MARK, OUT, PORT, INSTALL = {mark!r}, {out!r}, {port}, {install!r}
leaks = []
def attempt(name, action):
    try:
        if action() is not False:
            leaks.append(name)
    except BaseException:
        pass
attempt("install", lambda: open(os.path.join(INSTALL, ".canary-" + MARK), "w").close())
attempt("out", lambda: open(os.path.join(OUT, "gradebook.json"), "w").write("{{}}"))
attempt("solutions", lambda: bool(glob.glob({solutions!r} + "/*/*.ipynb")) or False)
attempt("checks", lambda: "@exercise" in open({checks!r}).read() or False)
attempt("network", lambda: socket.create_connection(("127.0.0.1", PORT), timeout=2).close())
attempt("other_jobs", lambda: os.path.exists({decoy!r}) or False)
attempt("memory", lambda: mmap.mmap(-1, 6 * 2**30).close())
def memory_total():  # three processes, each under the per-process cap, together over the job's
    import subprocess, sys
    hog = "import sys; b = bytearray(500 * 2**20); print('held', flush=True); sys.stdin.read()"
    children = [subprocess.Popen([sys.executable, "-c", hog], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                for _ in range(3)]
    for child in children:
        child.stdout.readline()
    for child in children:
        child.stdin.close()
    return all(child.wait() == 0 for child in children) or False
attempt("memory_total", memory_total)
def big_file():
    with open("big.bin", "wb") as stream:
        stream.seek(600 * 2**20)
        stream.write(b"x")
attempt("file_size", big_file)
def forge():
    forged = False
    for fd in os.listdir(f"/proc/{{os.getppid()}}/fd"):
        try:
            with open(f"/proc/{{os.getppid()}}/fd/{{fd}}", "w") as channel:
                channel.write('{{"kind": "verdict", "exercise": "l90.double", "verdict": {{"criteria": [{{"passed": true}}]}}}}\\n')
                forged = True
        except OSError:
            pass
    return forged
attempt("results", forge)
attempt("grader_process", lambda: os.path.exists("/proc/{grader}") and {grader} != os.getpid() or False)
def environments():  # the grader's secret, in this process's environment or any other's it can see
    seen = str(dict(os.environ))
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            seen += open(f"/proc/{{pid}}/environ", "rb").read().decode(errors="replace")
            seen += open(f"/proc/{{pid}}/cmdline", "rb").read().decode(errors="replace")
        except OSError:
            pass
    return {secret!r} in seen or False
attempt("secret", environments)
attempt("submissions", lambda: os.path.exists({subs!r}) or False)
open("leaks.txt", "w").write(",".join(leaks))
'''
REPORT = ("%%writefile ex_greet.py\nimport os\nLEAKS = open(os.path.join(os.path.dirname(__file__), 'leaks.txt')).read()"
          "\ndef greet(name, lang):\n    return LEAKS\n")


def test_learner_code_is_confined(tmp_path, monkeypatch):
    mark = uuid.uuid4().hex[:8]
    out = tmp_path / "out"
    out.mkdir()
    (out / "gradebook.json").write_text('{"submissions": {}}')
    decoy = Path(f"/tmp/celerylab-decoy-{mark}")
    decoy.mkdir()
    install = Path(celerylab.__file__).parent
    secret = f"secret-{mark}"
    monkeypatch.setenv("CELERYLAB_TEST_SECRET", secret)  # an instructor's credential in the grader's environment
    monkeypatch.setenv("REDIS_URL", f"redis://:{secret}@localhost:6379/0")
    listener = socket.create_server(("127.0.0.1", 0))
    try:
        attack = ATTACKS.format(mark=mark, out=str(out), port=listener.getsockname()[1], install=str(install),
                                solutions=str(SOLUTIONS), checks=str(COURSE / "l90_fixture" / "checks.py"),
                                decoy=str(decoy), grader=os.getpid(), secret=secret, subs=str(tmp_path / "subs"))
        notebook = submissions.with_cell_before("ex-greet", attack, double="stub", greet=REPORT)
        path = tmp_path / "subs" / "attacker.ipynb"
        path.parent.mkdir()
        path.write_text(json.dumps(submissions.as_json(notebook)))
        prepared = prepare(Found(path, "attacker", "attacker.ipynb"), path.parent, EXERCISES, FIXTURE_COURSE,
                           Limits(cell_timeout=30, notebook_timeout=90, check_timeout=60))
        result = run_job(replace(prepared.job, hide=[str(out), str(SOLUTIONS)], memory_total=JOB_MEMORY))
    finally:
        listener.close()
        decoy.rmdir()
        canary = install / f".canary-{mark}"
        written = canary.exists()
        canary.unlink(missing_ok=True)
    confinement = result.confinement
    if os.geteuid() != 0:
        assert "user (needs root)" in confinement["missing"]
        pytest.skip(f"full confinement needs root: {', '.join(confinement['missing'])} (run the suite as root: sudo)")
    assert confinement == {"kind": "confinement", "given": list(OBSERVED), "missing": []}
    greet = result.verdicts["l90.greet"]
    assert greet.criteria and greet.criteria[0].observed == "''", greet   # no attack succeeded
    assert not written and json.loads((out / "gradebook.json").read_text()) == {"submissions": {}}
    assert result.verdicts["l90.double"].passed is False            # the stub, and no forged verdict
