"""A release's environment: the course's dependencies and pins, but that line's Celery, kombu and redis-py."""
from __future__ import annotations

import sys
import venv
from pathlib import Path

from celerylab.matrix import environments
from celerylab.matrix.releases import RELEASES, release


def test_requirements_swap_celery_and_kombu_for_the_lines_pins():
    wanted = environments.requirements(release("5.5"))
    names = [environments.project_name(item) for item in wanted]
    assert wanted[-2:] == ["celery[redis]==5.5.3", "kombu==5.5.4"]
    assert names.count("celery") == names.count("kombu") == 1 and "redis" not in names
    assert {"pytest", "pytest-xdist", "flower", "celery-redbeat"} <= set(names)


def test_constraints_keep_every_pin_but_the_ones_a_line_decides():
    text = environments.constraints(release("5.5"))
    pinned = {environments.project_name(line.split("==")[0]) for line in text.splitlines() if "==" in line}
    assert not pinned & {"celery", "kombu", "redis"}
    assert {"billiard", "amqp", "flower", "celery-redbeat"} <= pinned


def test_environments_are_cached_per_line_outside_the_checkout(monkeypatch, tmp_path):
    monkeypatch.setenv("CELERYLAB_MATRIX_CACHE", str(tmp_path))
    places = {environments.location(each) for each in RELEASES}
    assert len(places) == 3 and all(place.parent == tmp_path for place in places)
    assert environments.location(release("5.6")).name.startswith("celery-5.6-")
    assert environments.ensure(RELEASES[-1]) == Path(sys.executable)  # the course's own: nothing to build
    assert not any(tmp_path.iterdir())


def test_an_environment_pip_cannot_build_is_a_clear_error_and_leaves_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("CELERYLAB_MATRIX_CACHE", str(tmp_path))
    broken = environments.Release("9.9", celery="9.9.9", kombu="9.9.9")

    class WithoutPip(venv.EnvBuilder):  # pip's own failure, without the 30 s of installing pip first
        def __init__(self, **options):
            super().__init__(**{**options, "with_pip": False})

    monkeypatch.setattr(environments.venv, "EnvBuilder", WithoutPip)
    try:
        environments.ensure(broken)
    except environments.ReleaseEnvironmentError as error:
        assert str(error).startswith("9.9: ")
    else:
        raise AssertionError("a release pip cannot install built")
    assert [path.name for path in tmp_path.iterdir()] == [f".{environments.location(broken).name}.lock"]


def test_two_runs_at_once_build_an_environment_once_and_neither_removes_the_others(monkeypatch, tmp_path):
    import threading
    import time

    monkeypatch.setenv("CELERYLAB_MATRIX_CACHE", str(tmp_path))
    line = environments.Release("9.8", celery="9.8.0", kombu="9.8.0")
    builds = []

    def build(release, building):  # a build that takes a while: the other run arrives meanwhile
        builds.append(building)
        (building / "bin").mkdir(parents=True)
        (building / "bin" / "python").write_text(str(len(builds)))
        time.sleep(0.5)
        (building / ".complete").write_text("9.8\n")

    monkeypatch.setattr(environments, "_build", build)
    # each "run" is another process in real life: the lock is per open file, so threads show it as well
    monkeypatch.setattr(environments.os, "getpid", lambda: threading.get_ident())
    found = []
    runs = [threading.Thread(target=lambda: found.append(environments.ensure(line))) for _ in range(2)]
    for run in runs:
        run.start()
    for run in runs:
        run.join(30)
    assert len(builds) == 1
    assert found == [environments.location(line) / "bin" / "python"] * 2
    assert found[0].read_text() == "1"
