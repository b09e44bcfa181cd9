"""The English notebooks prove, without a run of their own, what the Portuguese ones' nbval run proves."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output

from celerylab.compiler.language_parity import code_tokens, differences, foreign_text, leaks
from celerylab.course import Course
from celerylab.i18n import t

ROOT = Path(__file__).resolve().parents[2]
COURSE = Course.at_checkout(ROOT)
VARIANTS = ("lesson", "exercises", "solutions")


def notebook(*cells):
    return new_notebook(cells=list(cells))


def code(cell_id, source, *outputs):
    cell = new_code_cell(source, outputs=list(outputs))
    cell["id"] = cell_id
    cell.metadata["celerylab"] = {"id": cell_id}
    return cell


def printed(text):
    return new_output("stream", name="stdout", text=text)


def test_comments_do_not_count_but_code_does():
    assert code_tokens("x = f(1)  # um comentário\n") == code_tokens("x = f(1)  # a comment\n")
    assert code_tokens("x = f(1)\n") != code_tokens("x = f(2)\n")
    assert code_tokens("%%writefile ex.py\nx = 1\n") != code_tokens("%%writefile ex.py\nx = 2\n")


def test_twins_with_translated_comments_and_outputs_agree():
    pt = notebook(code("run", "n = 2  # duas vezes\nprint(n)", printed(t("check.passed_more", lang="pt", exercise="l90.greet", count=2, more=1))))
    en = notebook(code("run", "n = 2  # twice\nprint(n)", printed(t("check.passed_more", lang="en", exercise="l90.greet", count=2, more=1))))
    assert differences(pt, en, "en") == []


def test_a_translated_notebook_that_differs_is_told_apart():
    pt = notebook(code("run", "print(2)", printed("2\n")), code("plot", "draw()", printed("ok\n")))
    changed_code = notebook(code("run", "print(3)", printed("2\n")), code("plot", "draw()", printed("ok\n")))
    an_error = notebook(code("run", "print(2)", new_output("error", ename="NameError", evalue="x", traceback=[])),
                        code("plot", "draw()", printed("ok\n")))
    missing = notebook(code("run", "print(2)", printed("2\n")))
    assert differences(pt, changed_code, "en") == ["run: the code differs (not only its comments)"]
    assert [problem.split(":")[0] for problem in differences(pt, an_error, "en")] == ["run"]
    assert differences(pt, missing, "en")[0].startswith("code cells differ")


def test_a_message_printed_in_the_other_language_is_found():
    portuguese = t("check.passed_more", lang="pt", exercise="l90.greet", count=2, more=1)
    assert foreign_text(portuguese, "en") and not foreign_text(portuguese, "pt")
    leaked = notebook(code("run", "report()", printed(portuguese)))
    assert leaks(leaked, "en") and not leaks(leaked, "pt")
    pt = notebook(code("run", "report()", printed(portuguese)))
    assert differences(pt, leaked, "en") == leaks(leaked, "en")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("lesson", [lesson.name for lesson in COURSE.lessons()])
def test_each_english_notebook_agrees_with_its_portuguese_twin(lesson, variant):
    pt = nbformat.read(COURSE.notebook_path(lesson, "pt", variant), as_version=4)
    en = nbformat.read(COURSE.notebook_path(lesson, "en", variant), as_version=4)
    assert differences(pt, en, "en") == []
    assert leaks(pt, "pt") == []


def test_a_stream_printed_in_chunks_is_one_output():
    pt = notebook(code("run", "go()", printed("a\n"), printed("b\n")))
    en = notebook(code("run", "go()", printed("a\nb\n")))
    assert differences(pt, en, "en") == []
