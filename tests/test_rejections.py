"""Recorded rejections of wrong answers: proven again only when the check, the lesson, the runner or the answer changed."""
from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

from celerylab import rejections, wrong_answers
from celerylab.course import Lesson


def lesson_with_answer(tmp_path: Path) -> tuple[Lesson, wrong_answers.WrongAnswer]:
    folder = tmp_path / "l90_demo"
    (folder / "wrong_answers").mkdir(parents=True)
    (folder / "lesson.md").write_text("# demo\n")
    (folder / "checks.py").write_text("LIMIT = 2\n")
    answer = folder / "wrong_answers" / "greet__too_loud.py"
    answer.write_text('"""Shouts. Violates: "x"."""\nfrom celerylab import polling\n')
    return Lesson("l90_demo", folder), wrong_answers.in_lesson(folder)[0]


def test_a_rejection_stands_only_on_the_inputs_it_was_measured_on(tmp_path):
    lesson, answer = lesson_with_answer(tmp_path)
    assert rejections.still_proven(lesson, answer) is None  # nothing recorded: run it live
    digest = rejections.answer_digest(lesson, answer)
    rejections.record(lesson, answer, rejections.Rejection(digest, "'l90.greet.quiet'"))
    assert rejections.still_proven(lesson, answer) == rejections.Rejection(digest, "'l90.greet.quiet'")

    rejections._lesson_digest.cache_clear()
    (lesson.folder / "checks.py").write_text("LIMIT = 3\n")  # the check changed
    assert rejections.answer_digest(lesson, answer) != digest
    assert rejections.still_proven(lesson, answer) is None


def test_the_answer_itself_and_what_it_imports_are_part_of_the_digest(tmp_path):
    lesson, answer = lesson_with_answer(tmp_path)
    before = rejections.answer_digest(lesson, answer)
    answer.path.write_text(answer.path.read_text() + "LOUD = True\n")
    edited = rejections.answer_digest(lesson, answer)
    assert edited != before
    answer.path.write_text(answer.path.read_text().replace("polling", "atomic"))
    assert rejections.answer_digest(lesson, answer) not in (before, edited)


def test_the_record_keeps_only_answers_that_still_exist(tmp_path):
    lesson, answer = lesson_with_answer(tmp_path)
    gone = wrong_answers.WrongAnswer("greet", "gone", lesson.folder / "wrong_answers" / "greet__gone.py")
    gone.path.write_text('"""Gone. Violates: "x"."""\n')
    rejections.record(lesson, gone, rejections.Rejection("0" * 16, "'k'"))
    gone.path.unlink()
    rejections.record(lesson, answer, rejections.Rejection("1" * 16, "'k'"))
    assert rejections.recorded(lesson, gone) is None
    assert rejections.recorded(lesson, answer) == rejections.Rejection("1" * 16, "'k'")


def _record_many(folder: str, start: int) -> None:
    lesson = Lesson("l90_demo", Path(folder))
    for index in range(start, start + 20):
        path = Path(folder) / "wrong_answers" / f"greet__a{index}.py"
        rejections.record(lesson, wrong_answers.WrongAnswer("greet", f"a{index}", path),
                          rejections.Rejection(f"{index:016d}", "'k'"))


def test_test_processes_writing_one_record_at_once_lose_nothing(tmp_path):
    lesson, _ = lesson_with_answer(tmp_path)
    for index in range(40):
        (lesson.folder / "wrong_answers" / f"greet__a{index}.py").write_text('"""A. Violates: "x"."""\n')
    writers = [multiprocessing.get_context("fork").Process(target=_record_many, args=(str(lesson.folder), start))
               for start in (0, 20)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(30)
    answers = wrong_answers.in_lesson(lesson.folder)
    assert sum(1 for each in answers if rejections.recorded(lesson, each) is not None) == 40


def test_recording_is_asked_for_by_the_environment(monkeypatch):
    monkeypatch.delenv(rejections.RECORD_ENV, raising=False)
    assert not rejections.recording()
    monkeypatch.setenv(rejections.RECORD_ENV, "0")
    assert not rejections.recording()
    monkeypatch.setenv(rejections.RECORD_ENV, "1")
    assert rejections.recording()


def test_the_record_is_as_readable_as_any_file_the_user_writes(tmp_path):
    lesson, answer = lesson_with_answer(tmp_path)
    old = os.umask(0o022)
    try:
        rejections.record(lesson, answer, rejections.Rejection("0" * 16, "'l90.greet.quiet'"))
        path = rejections.record_path(lesson)
        assert stat.S_IMODE(path.stat().st_mode) == 0o644  # a new record: what the umask gives, not the temp file's 0600
        path.chmod(0o664)
        rejections.record(lesson, answer, rejections.Rejection("1" * 16, "'l90.greet.quiet'"))
        assert stat.S_IMODE(path.stat().st_mode) == 0o664  # a rewritten record keeps its mode
    finally:
        os.umask(old)


def test_an_exercises_stub_is_recorded_beside_its_wrong_answers_while_the_exercise_exists(tmp_path):
    lesson, answer = lesson_with_answer(tmp_path)
    (lesson.folder / "exercises.yml").write_text("greet:\n  module: ex_greet\n")
    stub_file = tmp_path / "ex_greet.py"
    stub_file.write_text("def greet():\n    raise NotImplementedError\n")
    stub = rejections.unsolved("greet", stub_file)
    assert rejections.key(stub) == "greet__unsolved" and rejections.key(answer) == "greet__too_loud"
    digest = rejections.answer_digest(lesson, stub)
    rejections.record(lesson, stub, rejections.Rejection(digest, "'l90.greet.quiet'"))
    rejections.record(lesson, answer, rejections.Rejection("1" * 16, "'k'"))  # rewriting the record keeps the stub's
    assert rejections.still_proven(lesson, stub) == rejections.Rejection(digest, "'l90.greet.quiet'")

    stub_file.write_text("def greet():\n    return 'hi'\n")  # another stub: run it live again
    assert rejections.still_proven(lesson, stub) is None

    from celerylab.course import _exercises

    (lesson.folder / "exercises.yml").write_text("wave:\n  module: ex_wave\n")  # the exercise is gone
    _exercises.cache_clear()
    rejections.record(lesson, answer, rejections.Rejection("2" * 16, "'k'"))
    assert rejections.recorded(lesson, stub) is None
