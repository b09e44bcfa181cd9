"""Lesson 08's printed figures: durations in seconds, per-message costs in milliseconds, in the page's language."""
from __future__ import annotations

import pytest

from celerylab import i18n
from celerylab.i18n import set_lang
from celerylab.lessons.l08_rabbitmq import helpers


@pytest.fixture
def lang(monkeypatch):
    """set_lang, with the language in force (and $CELERYLAB_LANG) back as it was afterwards."""
    monkeypatch.setenv("CELERYLAB_LANG", i18n.get_lang())
    monkeypatch.setattr(i18n, "_current", i18n._current)
    return set_lang


@pytest.mark.parametrize(("language", "seconds", "milliseconds"), [("pt", "2,9 s", "0,29 ms"), ("en", "2.9 s", "0.29 ms")])
def test_a_ms_key_prints_milliseconds_and_the_others_seconds(lang, language, seconds, milliseconds):
    lang(language)
    assert helpers.shown(2.93, "redelivered_after") == seconds
    assert helpers.shown(0.2912, "ms_per_message") == milliseconds
    assert helpers.shown(None, "ms_per_message") == "-"


@pytest.mark.parametrize(("language", "closed", "fraction"), [("pt", "fechou o canal", "0,4"), ("en", "closed the channel", "0.4")])
def test_a_release_record_prints_the_outcome_in_words_the_watermark_as_a_fraction_and_no_timing(
        lang, capsys, language, closed, fraction):
    lang(language)
    helpers.show_release({"outcome": "channel_closed", "reply_code": 406, "reply_text": "PRECONDITION_FAILED - ...",
                          "after": 3.5, "delivered": 1})
    helpers.show_release({"high_watermark": 0.4})
    printed = capsys.readouterr().out.splitlines()
    assert [line.rsplit(": ", 1)[1] for line in printed] == [closed, "406", "1", fraction]
    assert "PRECONDITION" not in "".join(printed)


class SlowToAnswer:
    """A stack whose one worker lets `silent` `inspect scheduled` calls go unanswered, then answers holding one task."""

    def __init__(self, silent: int):
        self.asked, self.silent = 0, silent
        self.workers = [type("Worker", (), {"hostname": "w1@lab"})()]
        self.app = type("App", (), {"control": type("Control", (), {"inspect": self.inspect})()})()

    def inspect(self, destination, timeout):
        return self

    def scheduled(self):
        self.asked += 1
        return None if self.asked <= self.silent else {"w1@lab": [{"id": "t1"}]}


def test_a_worker_that_answers_late_is_asked_again_rather_than_counted_as_holding_nothing():
    stack = SlowToAnswer(silent=2)
    assert helpers.scheduled(stack) == 1
    assert stack.asked == 3


def test_a_worker_that_never_answers_counts_as_holding_nothing():
    assert helpers.scheduled(SlowToAnswer(silent=10**6), timeout=0.2) == 0


@pytest.mark.parametrize(("language", "nothing", "no_406", "hung"), [
    ("pt", "nada (nenhum 406 no log)", "não saiu (sem 406", "não saiu em 60,0 s depois do 406: travado"),
    ("en", "nothing (no 406 in its log)", "it did not exit (no 406", "it did not exit within 60.0 s of the 406: hung")])
def test_a_measurement_that_did_not_happen_says_what_did_not_happen(lang, language, nothing, no_406, hung):
    """An edited section 1 whose report ends before the timeout: no 406, no exit; a loaded run: a 406, no exit."""
    lang(language)
    assert helpers.shown("", "ack_timeout") == nothing
    no_timeout = {"ack_timeout": "", "exited_after": None}
    timed_out = {"ack_timeout": "Unrecoverable error: PreconditionFailed(406, ...", "exited_after": None}
    assert helpers.shown(None, "exited_after", no_timeout).startswith(no_406)
    assert helpers.shown(None, "exited_after", timed_out).startswith(hung)
    assert helpers.shown(None, "waited") != "-" and helpers.shown(None, "timeout_after") != "-"


REFUSED = ("Queue.declare: (406) PRECONDITION_FAILED - invalid arg 'x-consumer-timeout' for queue 'l08-long-af3f51' "
           "in vhost '/' of queue type rabbit_classic_queue")


def test_a_refused_queue_declaration_is_read_from_the_worker_that_exited_at_start():
    from celerylab.stack.errors import ServiceError, StackError
    tail = f"Traceback (most recent call last):\n  ...\namqp.exceptions.PreconditionFailed: {REFUSED}\n"
    assert helpers.declaration_refused(StackError("stack.exited", tail, name="worker1", code=1, pattern="ready")) == REFUSED
    assert helpers.declaration_refused(StackError("stack.exited", "ModuleNotFoundError: No module named 'x'\n",
                                                  name="w", code=1, pattern="ready")) == ""
    assert helpers.declaration_refused(ServiceError("stack.exited", tail, name="broker", code=1, pattern="ready")) == ""


@pytest.mark.parametrize(("language", "said"), [("pt", "o RabbitMQ recusou a declaração da fila"),
                                                ("en", "RabbitMQ refused the queue's declaration")])
def test_show_and_summary_print_a_refused_declaration_and_a_missing_measurement_without_raising(
        lang, monkeypatch, capsys, language, said):
    """RabbitMQ 4.3 refuses section 3's queue: its record says why, and the summary goes on past it and past a
    measurement whose cell never finished."""
    from celerylab.lessons.l08_rabbitmq import page
    from celerylab.lessons.l08_rabbitmq.experiments.long_task import LongTask
    lang(language)
    refused = LongTask("", None, None, False, "", 0, 0, None, None, REFUSED)
    helpers.show(refused, "ack_timeout", "timeout_after")
    shown = capsys.readouterr().out.strip()
    assert shown == helpers.t("l08.declaration_refused", reason=REFUSED) and shown.startswith(said)
    monkeypatch.setattr(page.RUN, "measured", {"per_queue": refused})
    helpers.summary()
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if line.startswith("3 x-consumer-timeout: ")] == [
        f"3 x-consumer-timeout: {helpers.t('l08.declaration_refused', reason=REFUSED)}"]
    assert lines[0] == f"1 acks_late: {helpers.t('l08.not_measured')}" and said in lines[2]


def test_the_database_schedule_sends_beats_polls_to_a_queue_the_worker_consumes_beside_the_reminders(monkeypatch):
    """A poll the worker holds 1 s in is not counted as the reminder: the CI run that routed polls to the reminder's
    own queue read 1 unacknowledged message there once."""
    from celerylab.lessons.l08_rabbitmq.experiments import db_schedule
    started = {}

    def start(app, *, workers, settings, **_):
        started.update(queues=workers[0].queues, settings=settings)
        raise RuntimeError("stop here")

    monkeypatch.setattr(helpers.Stack, "start", start)
    with pytest.raises(RuntimeError, match="stop here"):
        db_schedule.db_schedule(None)
    reminders = started["settings"]["task_default_queue"]
    polls = started["settings"]["beat_schedule"]["l08-enqueue-due"]["options"]["queue"]
    assert polls != reminders and started["queues"] == (reminders, polls)
