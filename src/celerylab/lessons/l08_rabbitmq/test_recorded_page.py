"""Lesson 08 on a machine without RabbitMQ: the page's own cells print the recorded run, marked as recorded, with the
install commands, in each language (the cells are run here in-process, as a kernel would, with RabbitMQ hidden)."""
from __future__ import annotations

import contextlib
import io

import pytest

from celerylab import atomic, i18n
from celerylab.compiler.model import Target
from celerylab.compiler.plan import plan_lesson
from celerylab.course import Course
from celerylab.lessons.l08_rabbitmq import page, sources
from celerylab.stack import rabbitmq_node
from celerylab.stack.broker import URL_ENV as LAB_BROKER_ENV
from celerylab.stack.rabbitmq_node import RabbitNode

RECORDED = page.RECORDED


@pytest.fixture
def no_rabbitmq(monkeypatch, tmp_path):
    """RabbitMQ hidden (its scripts, docker and podman are looked for in an empty folder, no URL is given), and a node
    that would start fails the test."""
    monkeypatch.setattr(rabbitmq_node, "LIB_BIN", tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(sources.URL_ENV, raising=False)
    monkeypatch.delenv(LAB_BROKER_ENV, raising=False)
    monkeypatch.setattr(RabbitNode, "start", lambda self: pytest.fail("a node was started without RabbitMQ"))
    monkeypatch.setenv("CELERYLAB_LANG", i18n.get_lang())
    monkeypatch.setattr(i18n, "_current", i18n._current)
    monkeypatch.setattr(page, "RUN", page.Run())


def run_page(lang: str) -> dict[str, str]:
    """Every code cell of the lesson notebook in `lang`, run in order in one namespace: {cell id: what it printed}."""
    [lesson] = Course().lessons(["l08_rabbitmq"])
    notebook = plan_lesson(lesson, (lang,))[Target(lesson, lang, "lesson")]
    namespace: dict = {}
    printed = {}
    for cell in notebook.cells:
        if cell.cell_type == "code":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(cell.source, cell.id, "exec"), namespace)  # noqa: S102 - the page's own cells
            printed[cell.id] = out.getvalue()
    return printed


@pytest.mark.parametrize(("lang", "recorded", "other"), [("pt", "GRAVADAS", "RECORDED"), ("en", "RECORDED", "GRAVADAS")])
def test_without_rabbitmq_every_measured_cell_prints_the_recorded_run(no_rabbitmq, lang, recorded, other):
    kept = atomic.read_json(RECORDED)
    printed = run_page(lang)
    notice = printed["node"]
    assert recorded in notice and other not in notice
    assert f"RabbitMQ {kept['rabbitmq']}" in notice and kept["date"] in notice and f"Celery {kept['celery']}" in notice
    for command in ("apt install rabbitmq-server", "dnf install rabbitmq-server", "brew install rabbitmq",
                    "docker-compose.yml", "docker pull rabbitmq:4", sources.URL_ENV, "rabbitmq-server, rabbitmqctl",
                    "docker, podman"):
        assert command in notice, command
    mark = i18n.t("l08.recorded_mark", lang, rabbitmq=kept["rabbitmq"], date=kept["date"])
    measured = [cell for cell, text in printed.items() if cell not in ("lang-pt", "lang-en", "node", "summary", "close")]
    assert len(measured) >= 10
    for cell in measured:
        assert printed[cell].startswith(mark), cell
        assert len(printed[cell].splitlines()) > 1, cell  # the figures follow the mark
    # the figures themselves, through the same view as a live run: section 1's restart count, the burst's arrivals
    late = kept["measured"]["late"]
    assert f"{i18n.t('l08.seen.ran_after_restart', lang)}: {late['ran_after_restart']}" in printed["s1-run"]
    assert f"{i18n.t('l08.seen.in_queue_after', lang)}: {kept['measured']['burst']['in_queue_after']}" in printed[
        "s8-burst-run"]
    assert printed["summary"].count("\n") >= 20


def test_the_recorded_run_holds_every_measurement_the_page_makes():
    kept = atomic.read_json(RECORDED)
    assert set(kept) == {"rabbitmq", "celery", "date", "measured"}
    assert {"late", "eta", "per_queue", "early", "delays", "deaths", "retry", "consumer_timeout", "raised", "poisons",
            "kills", "down", "costs", "alarm", "burst", "restart"} <= set(kept["measured"])
