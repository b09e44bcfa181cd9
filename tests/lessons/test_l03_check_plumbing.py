"""Lesson 03's check plumbing: where a registered task was written, the given tasks left as given, and requests let into the API together."""
from __future__ import annotations

import asyncio
import importlib
import sys
import types
from pathlib import Path

from celerylab.lessons.l03_silent_defects import defined_in, given_tasks


def test_a_function_is_placed_by_its_file_not_by_its_module_label(tmp_path, monkeypatch):
    source = tmp_path / "l03_copy_module.py"
    source.write_text("def backup_db(database):\n    return database\n\n"
                      "backup_db.__module__ = 'celerylab.lessons.l03_silent_defects.shop.scheduled'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    copy = importlib.import_module("l03_copy_module")
    try:
        assert copy.backup_db.__module__.endswith("shop.scheduled")  # what the label says
        assert defined_in.module_of_file(copy.backup_db.__code__.co_filename) == "l03_copy_module"
    finally:
        sys.modules.pop("l03_copy_module", None)


def test_the_shops_own_task_is_placed_in_the_shops_module():
    from celerylab.lessons.l03_silent_defects.shop import scheduled

    run = scheduled.backup_db.run
    assert defined_in.module_of_file(run.__code__.co_filename) == scheduled.__name__


def test_a_file_no_module_was_imported_from_is_named_by_its_file():
    assert defined_in.module_of_file("/nowhere/ex_beat.py") == "ex_beat.py"


def served(monkeypatch):
    """served_together around a learner API that records when each request got in."""
    entered: list[str] = []

    async def learner(scope, receive, send):
        entered.append(scope["path"])

    module = types.ModuleType("l03_fake_learner")
    module.api = learner
    monkeypatch.setitem(sys.modules, "l03_fake_learner", module)
    monkeypatch.setenv("CELERYLAB_L03_MODULE", "l03_fake_learner")
    sys.modules.pop("celerylab.lessons.l03_silent_defects.served_together", None)
    interval = sys.getswitchinterval()
    together = importlib.import_module("celerylab.lessons.l03_silent_defects.served_together")
    sys.setswitchinterval(interval)  # set for the API's process, not this one's
    return together, entered


def scope(path: str, group: bytes | None) -> dict:
    headers = [(b"x-celerylab-together", group)] if group else []
    return {"type": "http", "path": path, "headers": headers}


async def empty_body():
    return {"type": "http.request", "body": b"", "more_body": False}


def test_a_request_of_a_group_waits_for_the_rest_of_its_group(monkeypatch):
    together, entered = served(monkeypatch)

    async def scenario():
        first = asyncio.ensure_future(together.api(scope("/first", b"g/2"), empty_body, None))
        await asyncio.sleep(0.2)
        held = list(entered)
        await together.api(scope("/second", b"g/2"), empty_body, None)
        await first
        return held

    assert asyncio.run(scenario()) == []  # the first one waited for the second
    assert sorted(entered) == ["/first", "/second"]


def test_a_request_without_a_group_goes_straight_in(monkeypatch):
    together, entered = served(monkeypatch)
    asyncio.run(together.api(scope("/alone", None), None, None))
    assert entered == ["/alone"]


def test_a_grouped_request_gets_its_whole_body_after_the_wait(monkeypatch):
    together, _ = served(monkeypatch)
    bodies: list[bytes] = []

    async def learner(scope, receive, send):
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        bodies.append(body)

    monkeypatch.setattr(together, "learner", learner)
    chunks = [{"type": "http.request", "body": b'{"ids": ', "more_body": True},
              {"type": "http.request", "body": b"[3, 7]}", "more_body": False}]

    async def receive():
        return chunks.pop(0)

    asyncio.run(together.api(scope("/notify", b"g/1"), receive, None))
    assert bodies == [b'{"ids": [3, 7]}']


GIVEN = """%%writefile ex_retries.py
@app.task(bind=True, name="ex.send_invoice")
def send_invoice(self, invoice_id):
    try:
        raise ConnectionError("billing API down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)
"""


def test_a_given_task_rewritten_only_in_its_layout_is_unchanged():
    relaid = ('@celery_app.task(name="ex.send_invoice",\n                 bind=True)\n'
              'def send_invoice(self, invoice_id):\n    """Bills."""\n    try:\n'
              '        raise ConnectionError("billing API down")\n'
              '    except ConnectionError as exc:\n        raise self.retry(exc=exc)  # no countdown\n')
    assert given_tasks.changed(GIVEN, {"ex.send_invoice": relaid}) == []


def test_a_given_task_that_declares_options_or_a_countdown_is_changed():
    declared = GIVEN.replace('name="ex.send_invoice"', 'name="ex.send_invoice", max_retries=3')
    countdown = GIVEN.replace("exc=exc)", "exc=exc, countdown=60)")
    for source in (declared, countdown, None, "def send_invoice(self, invoice_id):\n    pass\n"):
        assert given_tasks.changed(GIVEN, {"ex.send_invoice": source}) == ["ex.send_invoice"]


def test_the_given_tasks_are_read_from_the_lessons_answer_cell():
    from celerylab.lessons import l03_silent_defects

    lesson = Path(l03_silent_defects.__file__).parent / "lesson.md"
    cell = given_tasks.answer_cell(lesson, "l03.retry_defaults")
    assert given_tasks.shape(cell, "ex.send_invoice") == given_tasks.shape(GIVEN, "ex.send_invoice")
    assert given_tasks.shape(cell, "ex.welcome") is not None


def kombu_copied(monkeypatch):
    """kombu's serializer registry and JSON type table, restored after the test."""
    from kombu.serialization import registry
    from kombu.utils import json as kombu_json

    for name in ("_encoders", "_decoders", "type_to_name", "name_to_type"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    for name in ("_encoders", "_decoders"):
        monkeypatch.setattr(kombu_json, name, dict(getattr(kombu_json, name)))


def test_kombus_own_json_has_no_faults():
    from celerylab.lessons.l03_silent_defects import json_codec

    assert json_codec.faults() == []


def test_a_serializer_put_in_place_of_kombus_json_is_a_fault(monkeypatch):
    import pickle

    from kombu.serialization import register
    from kombu.utils import json as kombu_json

    from celerylab.lessons.l03_silent_defects import json_codec

    def dumps(value):
        try:
            return kombu_json.dumps(value)
        except Exception:
            return kombu_json.dumps({"__pickle__": pickle.dumps(value).hex()})

    variants = {  # the same name, another name taking over application/json, "json" under another content type
        "json": ("json", dumps, kombu_json.loads, "application/json"),
        "another name": ("smuggle", dumps, kombu_json.loads, "application/json"),
        "another content type": ("json", kombu_json.dumps, kombu_json.loads, "application/x-smuggle"),
    }
    for variant, (name, encoder, decoder, content_type) in variants.items():
        with monkeypatch.context() as patched:
            kombu_copied(patched)
            register(name, encoder, decoder, content_type=content_type, content_encoding="utf-8")
            assert json_codec.faults(), variant
    assert json_codec.faults() == []


def test_a_type_added_to_kombus_json_table_is_a_fault(monkeypatch):
    from kombu.utils.json import register_type

    from celerylab.lessons.l03_silent_defects import json_codec

    kombu_copied(monkeypatch)
    register_type(set, "set", sorted, set)
    assert any("set" in fault for fault in json_codec.faults())
