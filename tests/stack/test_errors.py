"""Bad input gives one readable message: a bad URL, an unreachable broker, a missing module, a worker that cannot boot."""
from __future__ import annotations

import socket
import threading

import pytest

from celerylab.i18n import set_lang
from celerylab.stack import Stack, StackError

pytestmark = pytest.mark.live  # starts processes


@pytest.fixture(autouse=True)
def english():
    set_lang("en")
    yield
    set_lang("pt")


def test_bad_url_is_refused_before_anything_starts():
    with pytest.raises(StackError, match="Invalid broker URL"):
        Stack.start("celerylab.stack.smoke", broker_url="http://nope")


def test_port_that_is_not_redis_is_reported():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def accept_and_close():
        connection, _ = server.accept()
        connection.close()

    threading.Thread(target=accept_and_close, daemon=True).start()
    with pytest.raises(StackError, match="did not answer"):
        Stack.start("celerylab.stack.smoke", broker_url=f"redis://127.0.0.1:{port}/0")
    server.close()


def test_missing_module_is_one_line():
    with pytest.raises(StackError, match="Could not import the app module 'no_such_module'"):
        Stack.start("no_such_module", broker_kind="embedded")


def test_worker_that_fails_to_boot_shows_its_log(tmp_path, monkeypatch):
    (tmp_path / "boom_app.py").write_text(
        "import os\n"
        "from celerylab.stack.appconfig import create_app\n"
        "app = create_app('boom')\n"
        "if os.environ.get('CELERYLAB_ROLE') == 'worker':\n"
        "    raise RuntimeError('the worker cannot import this')\n"
    )
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StackError) as caught:
        Stack.start("boom_app", broker_kind="embedded", env={"CELERYLAB_ROLE": "worker"}, timeline=False)
    assert "exited" in str(caught.value)
    assert "the worker cannot import this" in str(caught.value)


def test_unknown_broker_kind():
    with pytest.raises(StackError, match="Unknown broker kind"):
        Stack.start("celerylab.stack.smoke", broker_kind="kafka")
