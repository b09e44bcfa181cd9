"""The course reaches the check engine as a value: a call given a Course reads no course from the environment;
only a kernel's own check()/hint() (celerylab.checks.notebook), with no course given, reads the one the grader set."""
from __future__ import annotations

import os

import pytest
from grading_files import COURSE, FIXTURE_COURSE

from celerylab.checks import hint
from celerylab.checks.hints import next_hint
from celerylab.checks.learner import check_and_record
from celerylab.checks.solutions import solution_code
from celerylab.course import LESSONS_ENV, OUTPUT_ENV


class WatchedEnviron(dict):
    """os.environ's stand-in: remembers every name read."""

    def __init__(self, env):
        super().__init__(env)
        self.read: set[str] = set()

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)


@pytest.fixture
def environ(monkeypatch, tmp_path):
    """The environment names a course (an empty one): code that read it would not find the fixture's exercises."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    watched = WatchedEnviron({**os.environ, LESSONS_ENV: str(elsewhere), OUTPUT_ENV: str(elsewhere)})
    monkeypatch.setattr(os, "environ", watched)
    return watched


def test_a_library_call_given_a_course_never_reads_one_from_the_environment(environ, tmp_path):
    info = FIXTURE_COURSE.find_exercise("l90.greet")
    verdict, text = check_and_record(info, tmp_path, "en", course=FIXTURE_COURSE)  # no module: no stack needed
    assert verdict.missing_module and "ex_greet.py" in text
    assert next_hint(info, lang="en", course=FIXTURE_COURSE).startswith("💡 Hint 1/3")
    assert solution_code(info, "en", course=FIXTURE_COURSE).startswith("%%writefile ex_greet.py")
    assert not {LESSONS_ENV, OUTPUT_ENV} & environ.read


def test_a_kernels_hint_reads_the_course_the_grader_set(monkeypatch, capsys):
    monkeypatch.delenv(OUTPUT_ENV, raising=False)
    monkeypatch.setenv(LESSONS_ENV, str(COURSE))  # what job_supervisor.job_env gives a job's kernel
    assert hint("l90.greet").startswith("💡 Dica 1/3")
    monkeypatch.delenv(LESSONS_ENV)
    with pytest.raises(KeyError):  # the package's course has no l90
        hint("l90.greet")
    assert hint("l90.greet", course=FIXTURE_COURSE).startswith("💡 Dica 2/3")
