"""Hostile submissions that forged grades or reached the host before (issue 26): each test performs the attack as
a learner's notebook would, in a fully confined job (root), and fails with the defence it names turned off."""
from __future__ import annotations

import json
import os
import shutil
import socket
import uuid
from dataclasses import replace
from pathlib import Path

import nbformat
import pytest
import submissions
from grading_files import COURSE, EXERCISES, FIXTURES

from celerylab.compiler.model import Lesson, Target
from celerylab.compiler.plan import plan_lesson
from celerylab.course import Course
from celerylab.grader.intake import Found
from celerylab.grader.job_supervisor import run_job
from celerylab.grader.prepare import Limits, prepare

pytestmark = [pytest.mark.live, pytest.mark.timeout(300)]
SERVICES = FIXTURES / "services_course"
LIMITS = Limits(cell_timeout=40, notebook_timeout=120, check_timeout=90)


@pytest.fixture(autouse=True)
def as_root():
    if os.geteuid() != 0:
        pytest.skip("the attacks are stopped by the full confinement, which needs root (run the suite as root: sudo)")


def grade_notebook(tmp_path: Path, notebook, course: Path = COURSE, exercises: Path = EXERCISES) -> dict:
    path = tmp_path / "subs" / "attacker.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbformat.writes(notebook))
    prepared = prepare(Found(path, "attacker", "attacker.ipynb"), path.parent, exercises, Course.at(course), LIMITS)
    result = run_job(prepared.job)
    assert result.confinement["missing"] == [], result.confinement
    return result


def points(result: dict) -> dict:
    return {exercise: (verdict.passed, verdict.grader_error) for exercise, verdict in result.verdicts.items()}


REPORT = ("%%writefile ex_greet.py\nimport os\nLEAKS = open(os.path.join(os.path.dirname(__file__), 'leaks.txt')).read()"
          "\ndef greet(name, lang):\n    return LEAKS\n")


def reported(result: dict) -> str:
    """What the attack cell wrote to leaks.txt, as the greet check observed it (through ex_greet)."""
    return result.verdicts["l90.greet"].criteria[0].observed


FORGE = '''%%writefile tblib.py
import json, os
argv = open("/proc/self/cmdline").read().split("\\0")
if "celerylab.grader.job" not in argv:  # a worker: look like no tblib at all
    raise ImportError("tblib")
fd = int(argv[-2])
for exercise in ("l90.double", "l90.greet"):
    verdict = {"criteria": [{"key": "x", "expected": "1", "observed": "1", "passed": True}]}
    os.write(fd, (json.dumps({"kind": "verdict", "exercise": exercise, "verdict": verdict}) + "\\n").encode())
os._exit(0)
'''


def test_a_module_beside_the_answer_is_never_imported_by_the_job(tmp_path):
    """celery.result does `try: import tblib`: a tblib.py in the work folder ran in the job process (the stack's
    client app put that folder first on sys.path) and wrote verdicts on the pipe. Defence: grading/import_guard."""
    notebook = submissions.with_cell_before("ex-double", FORGE, double="stub", greet="stub")
    result = grade_notebook(tmp_path, notebook)
    assert points(result) == {"l90.double": (False, None), "l90.greet": (False, None)}
    double = result.verdicts["l90.double"]
    assert double.criteria and double.criteria[0].observed == "21", double  # the stub's answer, really checked


SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
PLACES = '''
import os, socket
MARK, SHARED, SOCKETS = {mark!r}, {shared!r}, {sockets!r}
leaks = []
for folder in SHARED:
    if os.path.exists(os.path.join(folder, "host-" + MARK)):
        leaks.append("sees " + folder)
    try:
        open(os.path.join(folder, "job-" + MARK), "w").close()
    except OSError:
        pass
for path in SOCKETS:
    try:
        with socket.socket(socket.AF_UNIX) as client:
            client.settimeout(2)
            client.connect(path)
            leaks.append("socket " + path)
    except OSError:
        pass
open("leaks.txt", "w").write(",".join(leaks))
'''


def host_sockets() -> list[str]:
    lines = Path("/proc/net/unix").read_text().splitlines()[1:]
    return sorted({line.split()[7] for line in lines if len(line.split()) > 7 and line.split()[7].startswith("/")})


def test_shared_folders_and_the_hosts_unix_sockets_are_out_of_reach(tmp_path):
    """A job sees nothing another left in a world-writable folder, leaves nothing there for a later one, and
    cannot connect to a Unix socket of the host (PostgreSQL's, MySQL's, and one in a folder of no standard
    name). Defence: the job's root is bubblewrap's (sandbox/bwrap.py): its own /tmp, /var/tmp and /dev/shm, and
    no /run or other folder of the host's sockets."""
    mark = uuid.uuid4().hex[:8]
    own_folder = Path(f"/var/lib/celerylab-sockets-{mark}")
    own_folder.mkdir()
    listeners = []
    try:
        for folder in SHARED:
            (Path(folder) / f"host-{mark}").write_text("left by another job")
        for path in (own_folder / "service.sock", Path(f"/run/celerylab-{mark}.sock")):
            listener = socket.socket(socket.AF_UNIX)
            listener.bind(str(path))
            os.chmod(path, 0o777)
            listener.listen()
            listeners.append(listener)
        sockets = host_sockets()
        assert str(own_folder / "service.sock") in sockets
        attack = PLACES.format(mark=mark, shared=SHARED, sockets=sockets)
        result = grade_notebook(tmp_path, submissions.with_cell_before("ex-greet", attack, greet=REPORT))
        assert reported(result) == "''"
        assert [folder for folder in SHARED if (Path(folder) / f"job-{mark}").exists()] == []
    finally:
        for listener in listeners:
            listener.close()
        shutil.rmtree(own_folder, ignore_errors=True)
        Path(f"/run/celerylab-{mark}.sock").unlink(missing_ok=True)
        for folder in SHARED:
            for name in (f"host-{mark}", f"job-{mark}"):
                (Path(folder) / name).unlink(missing_ok=True)


FORK_BOMB = '''
import subprocess, sys, time
bomb = """
import os, time
deadline = time.monotonic() + 45  # stops by itself, whatever happens to the job
while time.monotonic() < deadline:
    try:
        os.fork()
    except OSError:
        time.sleep(0.05)
os._exit(0)
"""
subprocess.Popen([sys.executable, "-c", bomb], start_new_session=True)
time.sleep(3)
print("started")
'''


def test_a_fork_bomb_left_by_a_cell_costs_only_that_cell(tmp_path):
    """A cell leaves processes that fork up to the job user's process limit (and whose dead children are
    zombies of the job): one pass over the job's descendants kills those it listed while the others fork
    again, and the first check could not start a worker. Defence: sandbox.processes.clear_job_user (kill(-1) as the job's
    user until none of its processes is left, reaping the zombies)."""
    result = grade_notebook(tmp_path, submissions.with_cell_before("check-greet", FORK_BOMB))
    assert points(result) == {"l90.double": (True, None), "l90.greet": (True, None)}
    assert "strays" in [note["kind"] for note in result.execution]


DANGLING = '''
import os, shutil, signal
home = os.environ["HOME"]
shutil.rmtree(os.path.join(home, "ipython"), ignore_errors=True)
os.symlink("/nowhere/at/all", os.path.join(home, "ipython"))
os.symlink("/nowhere/either", os.path.join(home, "dangling"))
os.kill(os.getppid(), signal.SIGKILL)  # the job process itself: the supervisor resumes in a fresh one
'''


def test_a_dangling_symlink_in_the_home_does_not_break_the_resumed_attempt(tmp_path):
    """The notebook ends the job process after leaving a dangling symlink where the job's set-up creates a
    folder; the resumed attempt must still run every check. Defence: job.own_folder."""
    result = grade_notebook(tmp_path, submissions.with_cell_before("check-greet", DANGLING))
    assert points(result) == {"l90.double": (True, None), "l90.greet": (True, None)}
    assert [note["kind"] for note in result.execution] == ["execution_crashed"]


SERVICE_ATTACK = '''%%writefile ex_mail.py
import os, signal
from celerylab.stack import create_app

app = create_app("ex_mail")


def fake_pid():
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and b"celerylab.fakes.email_provider" in open(f"/proc/{entry}/cmdline", "rb").read():
                return int(entry)
        except OSError:
            pass


@app.task(name="ex_mail.welcome")
def welcome(to):
    pid, leaks = fake_pid(), []
    for name, attempt in (("signal", lambda: os.kill(pid, 0)),
                          ("memory", lambda: open(f"/proc/{pid}/mem", "rb").close()),
                          ("fds", lambda: os.listdir(f"/proc/{pid}/fd"))):
        try:
            attempt()
            leaks.append(name)
        except OSError:
            pass
    return f"found {pid is not None}: " + ",".join(leaks)
'''


def services_notebooks(tmp_path: Path, answer: str):
    lesson = Lesson("l91_services", SERVICES / "l91_services")
    planned = plan_lesson(lesson, ("pt",))
    canonical = planned[Target(lesson, "pt", "exercises")]
    exercises = tmp_path / "exercises" / "pt" / "91_services.ipynb"
    exercises.parent.mkdir(parents=True)
    nbformat.write(canonical, str(exercises))
    notebook = nbformat.from_dict(json.loads(nbformat.writes(canonical)))
    for cell in notebook.cells:
        if cell.id == "ex-mail":
            cell.source = answer
    return notebook, exercises.parent.parent


def test_the_fakes_are_out_of_reach_of_the_learners_code(tmp_path):
    """A task read the fake's control token from /proc/PID/mem (same user, dumpable) and killed the fake to
    serve made-up stats on its port. Defence: the fakes run as the job's second user (stack.service_user)."""
    notebook, exercises = services_notebooks(tmp_path, SERVICE_ATTACK)
    result = grade_notebook(tmp_path, notebook, SERVICES, exercises)
    verdict = result.verdicts["l91.mail"]
    assert verdict.error is None and verdict.grader_error is None, verdict
    assert verdict.criteria[0].observed == "'found True: '"


def test_the_fakes_still_serve_the_checks_as_their_own_user(tmp_path):
    """The solved answer passes: a fake of another user still delivers, reports and stops."""
    lesson = Lesson("l91_services", SERVICES / "l91_services")
    solved = next(cell.source for cell in plan_lesson(lesson, ("pt",))[Target(lesson, "pt", "solutions")].cells
                  if cell.id == "ex-mail")
    notebook, exercises = services_notebooks(tmp_path, solved)
    result = grade_notebook(tmp_path, notebook, SERVICES, exercises)
    assert points(result) == {"l91.mail": (True, None)}, result.verdicts


DEEP_TREE = '''
import os, signal
os.makedirs("deep", exist_ok=True)
os.chdir("deep")
for _ in range(300):  # 300 names of 20 characters: a path far past PATH_MAX (4096)
    os.mkdir("d" * 20)
    os.chdir("d" * 20)
os.chdir(os.environ["HOME"])
os.kill(os.getppid(), signal.SIGKILL)  # the job process itself: the supervisor resumes in a fresh one
'''


def test_a_tree_deeper_than_path_max_and_a_killed_job_never_cost_the_resumed_attempt_its_user(tmp_path):
    """The notebook builds a tree of folders deeper than PATH_MAX in its work folder and kills its job: the
    resumed attempt's set-up, as root, walked that tree to give it to the job's user, failed (ENAMETOOLONG) and
    ran the learner's code as root. Defences: sandbox.attempt (fresh folders per attempt with only the answer
    modules copied in) and the supervisor's refusal of any attempt whose sandbox did not hold (grade_notebook
    asserts every part held, for every attempt)."""
    result = grade_notebook(tmp_path, submissions.with_cell_before("check-greet", DEEP_TREE, double="stub"))
    assert points(result) == {"l90.double": (False, None), "l90.greet": (True, None)}
    assert [note["kind"] for note in result.execution] == ["execution_crashed"]
    assert result.verdicts["l90.double"].criteria[0].observed == "21"  # the stub's answer, carried and checked


def test_a_job_whose_sandbox_does_not_hold_runs_no_learner_code_and_is_a_grader_failure(tmp_path):
    """Fail closed: a job given a user the grader's own range does not include (so the "user" part does not
    hold) reports it, runs nothing of the notebook, and every exercise is a grader failure, never a score.
    Defence: confine.failed_parts, applied by the job (it stops) and by the supervisor (it refuses the verdicts)."""
    path = tmp_path / "subs" / "attacker.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(nbformat.writes(submissions.solved("pt")))
    prepared = prepare(Found(path, "attacker", "attacker.ipynb"), path.parent, EXERCISES, Course.at(COURSE), LIMITS)
    result = run_job(replace(prepared.job, uid=4242, service_uid=4243))
    assert result.confinement["missing"] == ["user"]
    assert {exercise: verdict.grader_error for exercise, verdict in result.verdicts.items()} == {
        exercise: "the sandbox did not hold: user" for exercise in ("l90.double", "l90.greet")}
    assert result.execution == []


def test_without_bwrap_no_job_runs(tmp_path, monkeypatch):
    """No bwrap on the machine: run_job raises (the batch records a grader failure), it never runs unconfined."""
    from celerylab.grader.sandbox import bwrap

    def missing():
        raise bwrap.NoSandbox("bwrap not found")

    monkeypatch.setattr(bwrap, "binary", missing)
    path = tmp_path / "subs" / "attacker.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(nbformat.writes(submissions.solved("pt")))
    prepared = prepare(Found(path, "attacker", "attacker.ipynb"), path.parent, EXERCISES, Course.at(COURSE), LIMITS)
    with pytest.raises(bwrap.NoSandbox):
        run_job(prepared.job)


FILL_DISK = '''
written = 0
try:
    with open("fill.bin", "wb") as stream:
        for _ in range(4096):  # up to 4 GiB, in files under the per-file limit
            stream.write(b"x" * 2**20)
            written += 1
            if written % 400 == 0:
                stream.close()
                stream = open(f"fill{written}.bin", "wb")
except OSError as error:
    print("stopped:", error)
print("written MiB:", written)
'''


def test_a_job_filling_its_folder_is_stopped_by_its_memory_cap_not_the_disk(tmp_path):
    """A job wrote files until the disk of the gradebook was full (ENOSPC at the save). Its folder is now in
    shared memory, charged to its memory cgroup: it stops at the job's cap (job_supervisor.job_folder)."""
    notebook = submissions.with_cell_before("check-greet", FILL_DISK)
    path = tmp_path / "subs" / "attacker.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(nbformat.writes(notebook))
    prepared = prepare(Found(path, "attacker", "attacker.ipynb"), path.parent, EXERCISES, Course.at(COURSE), LIMITS)
    result = run_job(replace(prepared.job, memory_total=1200 * 2**20))
    assert result.confinement["missing"] == []
    assert [note["kind"] for note in result.execution] == ["kernel_died"]  # the cap ended it, not a full disk
    assert not result.grader_errors()  # the job's own memory is spent (its check may crash); the grader's is not
