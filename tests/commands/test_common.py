"""A command resolves its course once, at its edge, and hands it down: `check` builds one Course and looks its
exercise up once; an old option name still works for one release, with a warning."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from celerylab import cli
from celerylab.course import Course
from celerylab.i18n import set_lang

sys.path.insert(0, str(Path(__file__).parents[1] / "checks" / "fixtures"))
from grading_files import COURSE  # noqa: E402


@pytest.fixture
def counted(monkeypatch, tmp_path):
    """How many Course values are built and how many exercise look-ups are made while a command runs."""
    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CELERYLAB_ROOT", str(tmp_path))  # `reset` removes the answer module under the notebooks
    calls = {"built": 0, "lookups": 0}
    build, lookup = Course.__init__, Course.find_exercise

    def counting_init(self, *args, **kwargs):
        calls["built"] += 1
        build(self, *args, **kwargs)

    def counting_lookup(self, exercise_id):
        calls["lookups"] += 1
        return lookup(self, exercise_id)

    monkeypatch.setattr(Course, "__init__", counting_init)
    monkeypatch.setattr(Course, "find_exercise", counting_lookup)
    return calls


def test_check_builds_one_course_and_looks_its_exercise_up_once(counted, tmp_path, capsys):
    (tmp_path / "answers").mkdir()  # no ex_greet.py: the check says so without starting a stack
    assert cli.main(["check", "l90.greet", "--lessons-dir", str(COURSE), "--dir", str(tmp_path / "answers"),
                     "--lang", "en"]) == 1
    assert "ex_greet.py" in capsys.readouterr().out
    assert counted == {"built": 1, "lookups": 1}


@pytest.mark.parametrize("argv,printed", [(["hint", "l90.double"], "Hint 1/2: The task must return twice x."),
                                          (["progress"], "l90.double"), (["reset", "l90.double"], "l90.double")])
def test_each_learner_command_builds_one_course(counted, capsys, argv, printed):
    assert cli.main([*argv, "--lessons-dir", str(COURSE), "--lang", "en"]) == 0
    assert printed in capsys.readouterr().out                       # the fixture course's exercise, found
    assert counted["built"] == 1


def test_the_course_of_a_command_is_its_lessons_dir_else_the_packages(monkeypatch, tmp_path):
    from celerylab.commands._common import command_course

    monkeypatch.setenv("CELERYLAB_COURSE_ROOT", str(tmp_path / "not-this-one"))  # only a started kernel reads it
    monkeypatch.delenv("CELERYLAB_ROOT", raising=False)
    parser = cli.build_parser()
    assert command_course(parser.parse_args(["progress"])) == Course.at()
    given = command_course(parser.parse_args(["progress", "--lessons-dir", str(COURSE)]))
    assert given.lessons_dir == COURSE.resolve() and given.output_root == COURSE.resolve().parent
    monkeypatch.setenv("CELERYLAB_ROOT", str(tmp_path))  # the lab's notebooks folder
    assert command_course(parser.parse_args(["progress", "--lessons-dir", str(COURSE)])).output_root == tmp_path


@pytest.mark.parametrize("lang,warning", [("en", "Warning: --course is deprecated"),
                                          ("pt", "Aviso: --course está obsoleta")])
def test_builds_old_course_option_names_the_file_option_and_still_works(capsys, tmp_path, lang, warning):
    set_lang(lang)
    try:
        parser = cli.build_parser()
        args = parser.parse_args(["build", "--course", str(tmp_path / "course.yml")])
        build_help = parser._subparsers._group_actions[0].choices["build"].format_help()
    finally:
        set_lang("pt")
    assert args.course_file == tmp_path / "course.yml"
    err = capsys.readouterr().err
    assert warning in err and "--course-file" in err
    assert "--course-file" in build_help and "--course " not in build_help   # the old name is not offered
