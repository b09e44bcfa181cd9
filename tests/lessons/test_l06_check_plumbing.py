"""Lesson 06's check plumbing: the task id read from the API's answer, routes asked of a producer process with a
task's arguments, the chord's expected result and imports, late acks seen on the broker, and the tasks the routing
exercise must leave on default."""
from __future__ import annotations

import datetime
import os
import time

import httpx
import pytest

from celerylab.i18n import LANGS, set_lang
from celerylab.lessons.l06_architecture import acks, checks, helpers
from celerylab.stack.errors import StackError


class FakeService:
    def __init__(self, log: str):
        self.log = log

    def tail(self, n: int = 40) -> str:
        return self.log


class FakeStack:
    def __init__(self, log: str):
        self.services = {"api": FakeService(log)}


def answer(status: int, body: str, path: str = "/grades/export") -> httpx.Response:
    return httpx.Response(status, text=body, request=httpx.Request("POST", f"http://127.0.0.1:8000{path}"))


def test_the_task_id_of_an_accepted_post():
    assert helpers.task_id_from(answer(202, '{"task_id": "abc-123"}'), FakeStack("")) == "abc-123"


@pytest.mark.parametrize("lang", LANGS)
def test_a_failed_post_names_its_status_and_the_api_log_not_a_json_error(lang):
    set_lang(lang)
    try:
        with pytest.raises(StackError) as raised:
            helpers.task_id_from(answer(500, "Internal Server Error"),
                                 FakeStack('File "ex_routes.py", line 9\nNameError: name \'queue\' is not defined'))
    finally:
        set_lang("pt")
    message = str(raised.value)
    assert "HTTP 500" in message and "POST /grades/export" in message
    assert "NameError: name 'queue' is not defined" in message
    assert ("A API não devolveu" if lang == "pt" else "The API answered no task id") in message


def test_an_answer_without_a_task_id_is_reported_the_same_way():
    with pytest.raises(StackError, match="HTTP 200"):
        helpers.task_id_from(answer(200, "<html>not the API</html>"), FakeStack(""))
    with pytest.raises(StackError, match="HTTP 422"):
        helpers.task_id_from(answer(422, '{"detail": "field required"}'), None)


class ProducerStack:
    """What producer_routes needs of a stack: the processes' environment and the folder holding the answer."""

    def __init__(self, workdir):
        self.workdir = workdir

    def process_env(self, extra: dict | None = None) -> dict:
        return {**os.environ, "PYTHONPATH": str(self.workdir), **{k: str(v) for k, v in (extra or {}).items()}}


def test_routes_are_asked_of_a_producer_process_with_the_task_arguments(tmp_path):
    (tmp_path / "ex_routing.py").write_text(
        "from celery.signals import celeryd_init\n"
        "from celerylab.lessons.l06_architecture.tasks import app\n"
        "def by_length(name, args, kwargs, options, task=None, **kw):\n"
        "    if name == 'l06.long':\n"
        "        return {'queue': 'exports' if args and args[0] >= 2 else 'default'}\n"
        "app.conf.task_routes = [by_length]\n"
        "@celeryd_init.connect\n"
        "def only_in_workers(**_):\n"
        "    app.conf.task_routes = [by_length, {'email.send_welcome': {'queue': 'priority'}}]\n")
    asked = [("l06.long", (2.0,)), ("l06.long", (1.5,)), ("email.send_welcome", ())]
    assert checks.producer_routes(ProducerStack(tmp_path), "ex_routing", asked) == {
        ("l06.long", (2.0,)): "exports", ("l06.long", (1.5,)): "default",
        ("email.send_welcome", ()): "default"}  # what a worker's signal sets never reaches a producer


def test_the_clock_moments_are_a_weekday_night_day_and_evening_and_a_sunday():
    monday = datetime.datetime(2026, 12, 7, 10, 13, tzinfo=datetime.timezone.utc).timestamp()
    moments = {name: datetime.datetime.fromtimestamp(at, datetime.timezone.utc)
               for name, at in checks.clock_moments(monday).items()}
    assert {name: at.strftime("%A %H:%M UTC") for name, at in moments.items()} == {name: name for name in moments}
    assert all(at.timestamp() > monday for at in moments.values())


def test_routes_are_asked_with_the_producer_clock_moved_before_and_after_the_import(tmp_path):
    (tmp_path / "ex_clock.py").write_text(
        "import datetime, time\n"
        "from celerylab.lessons.l06_architecture.tasks import app\n"
        "IMPORTED = datetime.datetime.fromtimestamp(time.time(), datetime.timezone.utc).hour\n"
        "def by_hour(name, args, kwargs, options, task=None, **kw):\n"
        "    now = datetime.datetime.now(datetime.timezone.utc)\n"
        "    return {'queue': f'{now:%a}-{now.hour}-{IMPORTED}'}\n"
        "app.conf.task_routes = [by_hour]\n")
    moments = checks.clock_moments(time.time())
    queues = checks._producer(ProducerStack(tmp_path), "ex_clock", "route", [("l06.long", (1.0,))],
                              moments=tuple(moments.values()))
    assert queues == ["Tue-3-3", "Tue-13-3", "Tue-21-3", "Sun-15-3"]


def test_the_clock_sweep_covers_every_hour_of_every_weekday_and_the_month_and_year_ends():
    monday = datetime.datetime(2026, 12, 7, 10, 13, tzinfo=datetime.timezone.utc).timestamp()
    utc = datetime.timezone.utc
    moments = [datetime.datetime.fromtimestamp(at, utc) for at in checks.clock_sweep(monday)]
    assert all(at.timestamp() > monday for at in moments)
    assert {(at.weekday(), at.hour) for at in moments} == {(day, hour) for day in range(7) for hour in range(24)}
    assert len({at.minute for at in moments}) > 30
    last_days = {(at.year, at.month, at.day) for at in moments
                 if (at + datetime.timedelta(days=2)).day <= 2}  # the last two days of a month
    assert len(last_days) >= 24 and (2026, 12, 31) in last_days and (2027, 2, 27) in last_days
    assert any((at.month, at.day) == (1, 1) for at in moments) and any((at.month, at.day) == (2, 29) for at in moments)
    assert checks.moment_tag(moments[0].timestamp()) == "2026-12-12 00:00 UTC"  # a Saturday night comes first


def test_routes_are_asked_with_keyword_arguments_too(tmp_path):
    (tmp_path / "ex_kwargs.py").write_text(
        "from celerylab.lessons.l06_architecture.tasks import app\n"
        "def by_kwargs(name, args, kwargs, options, task=None, **kw):\n"
        "    return {'queue': 'default' if kwargs.get('seconds', 1) < 0.1 else 'heavy'}\n"
        "app.conf.task_routes = [by_kwargs]\n")
    assert checks._producer(ProducerStack(tmp_path), "ex_kwargs", "route",
                            [("report.export_grades", ("2026-1", 0.0)),
                             ("report.export_grades", (), {"period": "2026-1", "seconds": 0.0})]) == ["heavy", "default"]
    kwargs_cases = [(name, kwargs) for name, cases in checks.ROUTE_ARGS.items() for _, kwargs in cases if kwargs]
    assert {name for name, _ in kwargs_cases} == set(checks.ROUTE_ARGS)
    assert ("report.export_grades", {"period": "2026-1", "seconds": 0.0}) in kwargs_cases


def test_at_grading_the_sizes_and_the_backlog_go_far_beyond_the_visible_ones():
    def biggest(cases, key, position):
        return max(kwargs[key] if key in kwargs else args[position] for args, kwargs in cases
                   if key in kwargs or len(args) > position)

    pdfs = checks.HIDDEN_ROUTE_ARGS["report.build_pdf"]
    assert min(len(kwargs.get("student_ids", args[0] if args else [])) for args, kwargs in pdfs) >= 10_000
    assert biggest(checks.HIDDEN_ROUTE_ARGS["report.export_grades"], "seconds", 1) >= 7 * 86400
    assert any("student_ids" in kwargs for _, kwargs in pdfs)
    assert checks.HIDDEN_BACKLOG["heavy"] >= 10 * checks.BACKLOG and set(checks.HIDDEN_BACKLOG) == set(checks.QUEUES)


def test_the_feedback_shows_keyword_arguments_by_name():
    assert checks.shown(((list(range(300)),)), {"period": "2026-1"}) == "([300 items], period='2026-1')"


class LosingWorker:
    """A worker whose main process sees its killed pool process die `lost_after` s later, and then receives the
    export again `again_after` s after that (a retry, a failure handler sending it again)."""

    def __init__(self, lost_after: float, again_after: float):
        self.lost_after, self.again_after = lost_after, again_after
        self.killed: float | None = None
        self.task_id = ""

    def wait_pool_ready(self) -> None:
        pass

    def kill_child(self, index: int) -> None:
        self.killed = time.time()

    @property
    def logs(self) -> str:
        lines = [f"Task l06.long[{self.task_id}] received"] if self.task_id else []
        since = time.time() - self.killed if self.killed is not None else -1.0
        if since >= self.lost_after:
            lines.append("Process 'ForkPoolWorker-1' pid:1 exited with 'signal 9 (SIGKILL)'")
        if since >= self.lost_after + self.again_after:
            lines.append("Task l06.long[again] received")
        return "\n".join(lines)


class LosingStack:
    def __init__(self, worker: LosingWorker):
        self.workers = [worker]
        self.app = self

    def send_task(self, name, args, queue=None):
        self.workers[0].task_id = "first"
        return type("Result", (), {"id": "first", "state": "PENDING"})()


def test_an_interrupted_export_is_watched_from_when_the_worker_saw_its_process_die(monkeypatch):
    monkeypatch.setattr(checks, "RERUN_WAIT", 0.5)
    worker = LosingWorker(lost_after=0.8, again_after=0.3)  # on a busy machine, seen dead well after the kill
    assert checks.interrupted_export_runs(LosingStack(worker), "long", 2.0, 0.0) == 2


def test_the_expected_chord_result_follows_the_rule_not_min():
    chunks = {21: [], 40: [-1, -5, 5], 3: [1, 2], 7: [-3]}
    assert checks.expected(chunks) == {"imported": 2, "failed": [7, 40]}  # one item per corrupt chunk, empty is valid
    assert checks.HIDDEN_CHUNKS.keys() & checks.HIDDEN_BESIDE.keys() == set()  # two chords, told apart by index
    assert any(rows == [] for rows in checks.HIDDEN_CHUNKS.values())
    assert any(sum(row < 0 for row in rows) > 1 for rows in checks.HIDDEN_CHUNKS.values())


def test_the_routing_exercise_asks_every_other_task_of_the_app():
    names = checks.unrouted_tasks()
    assert {"data.sync_erp", "import.insert", "billing.invoice", "payment.capture", *checks.UNKNOWN_TASKS} <= set(names)
    assert not [name for name in names if name.startswith(("email.", "report.", "celery."))]


def test_an_ack_counts_as_late_only_when_the_message_waits_well_inside_the_run():
    sampler = acks.UnackedSampler.__new__(acks.UnackedSampler)
    sampler.samples = [(100.0, {"a", "b"}), (100.1, {"a"}), (101.0, {"a"})]  # "b" reserved, acked when it started
    assert sampler.held_while_running("a", started=100.05, seconds=2.0)
    assert not sampler.held_while_running("b", started=100.05, seconds=2.0)
    assert not sampler.held_while_running("a", started=101.5, seconds=2.0)  # only reserved before its start


def test_what_each_chunk_must_import_follows_the_rule():
    assert checks.chunk_imports({3: [2, 1], 12: [6, -7], 21: []}) == {3: [1, 2], 12: [], 21: []}


def test_workers_written_with_a_type_annotation_are_read(tmp_path):
    from celerylab.lessons.l06_architecture.checks import declared_workers

    module = tmp_path / "ex_deploy.py"
    module.write_text('WORKERS: list[list[str]] = [["long"], ["default"]]\n')
    assert declared_workers(module) == ([["long"], ["default"]], None)
    module.write_text("WORKERS: list[list[str]]\n")
    assert declared_workers(module) == (None, "WORKERS = ?")


def test_the_feedback_shows_long_argument_lists_by_their_length():
    assert checks.shown((list(range(300)), "2026-1", 0.5)) == "([300 items], '2026-1', 0.5)"
    assert checks.shown(([7], "2026-1", 0.01)) == "([7], '2026-1', 0.01)"
    assert checks.shown(()) == "()"


CONF_ASKED = [("report.export_grades", ()), ("email.send_password_reset", ())]


def test_a_producer_reads_task_routes_as_a_mapping_by_task_name_or_as_what_it_is(tmp_path):
    (tmp_path / "ex_mapping.py").write_text(
        "from celerylab.lessons.l06_architecture.tasks import app\n"
        "from celerylab.lessons.l06_architecture.web import api\n"
        "app.conf.task_routes = {'email.*': {'queue': 'priority'}, 'report.export_grades': 'heavy'}\n")
    (tmp_path / "ex_router.py").write_text(
        "from celerylab.lessons.l06_architecture.tasks import app\n"
        "from celerylab.lessons.l06_architecture.web import api\n"
        "def route(name, args, kwargs, options, task=None, **kw):\n"
        "    return {'queue': 'heavy'}\n"
        "app.conf.task_routes = (route, {'report.build_pdf': {'queue': 'heavy', 'routing_key': 'pdf'}})\n")
    stack = ProducerStack(tmp_path)
    assert checks._producer(stack, "ex_mapping", "conf", CONF_ASKED) == {
        "task_routes": {"email.*": "priority", "report.export_grades": "heavy"}, "replaced": []}
    assert checks._producer(stack, "ex_router", "conf", CONF_ASKED) == {
        "task_routes": "(<function route>, {'report.build_pdf': {'queue': 'heavy', 'routing_key': 'pdf'}})",
        "replaced": []}


def test_a_producer_names_the_sending_code_and_the_api_an_answer_replaced(tmp_path):
    (tmp_path / "ex_patched.py").write_text(
        "from celery import Celery\n"
        "from fastapi import FastAPI\n"
        "from celerylab.lessons.l06_architecture.tasks import app, export_grades\n"
        "app.conf.task_routes = {'report.*': {'queue': 'heavy'}}\n"
        "Celery.send_task = lambda self, *a, **kw: None\n"
        "type(app.tasks['report.export_grades']).apply_async = lambda self, *a, **kw: None\n"
        "type(export_grades).delay = lambda self, *a, **kw: None\n"
        "api = FastAPI()\n")
    assert checks._producer(ProducerStack(tmp_path), "ex_patched", "conf", CONF_ASKED)["replaced"] == [
        "Celery.send_task", "PromiseProxy.delay", "api", "report.export_grades.apply_async"]


def test_a_worker_s_task_routes_is_read_from_its_json_conf_the_producer_s_way():
    assert helpers.route_table({"email.*": {"queue": "priority"}, "report.export_grades": "heavy"}) == {
        "email.*": "priority", "report.export_grades": "heavy"}
    assert helpers.route_table(["<function route at 0x7f00>"]) == "['<function route>']"
    assert helpers.route_table({"report.*": {"queue": "heavy", "exchange": "reports"}}) == \
        "{'report.*': {'queue': 'heavy', 'exchange': 'reports'}}"


def test_names_that_start_as_the_e_mails_and_the_reports_do_are_asked_too():
    names = checks.unrouted_tasks()
    assert any(name.startswith("report") and not name.startswith("report.") for name in names)
    assert any(name.startswith("email") and not name.startswith("email.") for name in names)


HEAD = ("from celerylab.lessons.l06_architecture.tasks import app\n"
        "from celerylab.lessons.l06_architecture.web import api\n")


@pytest.mark.parametrize("body", [
    '"""Routes: task_routes by name."""\napp.conf.task_routes = {"email.*": {"queue": "priority"}, "report.*": "heavy"}\n',
    'app.conf.task_routes = {\n    "email.send_welcome": {"queue": "priority"},  # task_routes\n}\n',
])
def test_task_routes_set_once_as_a_literal_mapping_is_accepted(tmp_path, body):
    (tmp_path / "ex_routes.py").write_text(HEAD + body)
    assert checks.routes_in_source(tmp_path / "ex_routes.py") == checks.ROUTES_LITERAL


@pytest.mark.parametrize("body, line", [
    ('R = {"report.*": {"queue": "heavy"}}\napp.conf.task_routes = R\n', 4),  # not written out
    ('import random\napp.conf.task_routes = {"report.*": {"queue": "heavy" if random.random() < 1 else "x"}}\n', 4),
    ('app.conf.task_routes = {"report.*": {"queue": "heavy"}}\napp.conf.task_routes["email.*"] = "priority"\n', 4),
    ('app.conf.task_routes = {"report.*": {"queue": "heavy"}}\napp.conf.task_routes.update({"email.*": "x"})\n', 4),
    ('app.conf.task_routes = {"report.*": {"queue": "heavy"}}\napp.conf.task_routes = {"email.*": "x"}\n', 3),
    ('if True:\n    app.conf.task_routes = {"report.*": {"queue": "heavy"}}\n', 4),
    ('app.conf.update(task_routes={"report.*": {"queue": "heavy"}})\n', 3),
    ('app.conf.task_routes = {"report.*": {"queue": "heavy"}}\nsetattr(app.conf, "task_routes", {})\n', 4),
    ('app.conf.task_routes = {"report.*": {"queue": "heavy"}}\ndef f(**_):\n    app.amqp.flush_routes()\n', 5),
    ('app.conf.CELERY_ROUTES = {"report.*": {"queue": "heavy"}}\n', 3),
])
def test_task_routes_changed_read_or_computed_is_refused_by_line(tmp_path, body, line):
    (tmp_path / "ex_routes.py").write_text(HEAD + body)
    found = checks.routes_in_source(tmp_path / "ex_routes.py")
    assert isinstance(found, list) and any(case.startswith(f"line {line}:") for case in found), found


def test_a_module_without_task_routes_is_told_so(tmp_path):
    (tmp_path / "ex_routes.py").write_text(HEAD)
    assert checks.routes_in_source(tmp_path / "ex_routes.py") == ["task_routes = ?"]
