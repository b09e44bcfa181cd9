"""Lesson 08's checks share one private RabbitMQ node per process, started at the first check; each check gets fresh virtual hosts."""
from __future__ import annotations

import atexit
import base64
import contextlib
import hashlib
import itertools
import json
import os
import subprocess
import threading
from collections.abc import Callable, Iterator

from celerylab.stack.rabbitmq_node import RabbitNode

AT_BOOT = 16  # virtual hosts the node imports at boot (definitions): a check takes them with no `rabbitmqctl` call
BATCH = 4     # virtual hosts created per `rabbitmqctl eval` once those are used (each call boots an Erlang VM for the
              # CLI: ~2 s of CPU, over a minute on a machine loaded 20 times over its cores)

class CheckNode(RabbitNode):
    """The checks' node, its `rabbitmqctl` run in the node's folder, as the node itself is: the CLI's Erlang VM lists
    the folder it starts in, and one it may not list (a grading job's, searchable only) puts an "=ERROR REPORT====" of
    its own on stdout, before the answer."""

    def ctl(self, *args: str, timeout: float = 120) -> str:
        out = subprocess.run([*self.command("rabbitmqctl"), "-n", self.name, *args], env=self.env(), cwd=self.folder,
                             capture_output=True, text=True, timeout=timeout)
        return out.stdout


_lock = threading.Lock()  # one check on the node at a time: consumer_timeout is the whole node's
_node: RabbitNode | None = None
_timeout_ms: int | None = None
_fresh: list[str] = []  # virtual hosts created and never used
_numbers = itertools.count(1)


class VirtualHost:
    """One check's view of the shared node: ``.url`` on its own virtual host (queues, exchanges and messages of
    other checks are invisible there); everything else (``ctl``, ``port``...) is the node's."""

    def __init__(self, node: RabbitNode, name: str):
        self.node, self.name = node, name

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.node.port}/{self.name}"

    def __getattr__(self, attribute: str):
        return getattr(self.node, attribute)


def _erlang(consumer_timeout_ms: int, vhosts: list[str]) -> str:
    """One `eval`: set the node's consumer_timeout (channels opened afterwards use it) and create `vhosts` for guest."""
    created = ", ".join(f'<<"{name}">>' for name in vhosts)
    return (f"application:set_env(rabbit, consumer_timeout, {consumer_timeout_ms}), "
            f"[begin rabbit_vhost:add(V, <<\"celerylab\">>), rabbit_auth_backend_internal:set_permissions("
            f"<<\"guest\">>, V, <<\".*\">>, <<\".*\">>, <<\".*\">>, <<\"celerylab\">>) end || V <- [{created}]], ok.")


def password_hash(password: str) -> str:
    """RabbitMQ's default password hash (rabbit_password_hashing_sha256): base64 of salt + sha256(salt + password)."""
    salt = os.urandom(4)
    return base64.b64encode(salt + hashlib.sha256(salt + password.encode()).digest()).decode()


def definitions(vhosts: list[str]) -> dict:
    """The definitions the node imports at boot: guest (as RabbitMQ seeds it) with every permission on "/" and `vhosts`."""
    every = {"configure": ".*", "write": ".*", "read": ".*"}
    return {"users": [{"name": "guest", "password_hash": password_hash("guest"), "tags": ["administrator"],
                       "hashing_algorithm": "rabbit_password_hashing_sha256"}],
            "vhosts": [{"name": name} for name in ["/", *vhosts]],
            "permissions": [{"user": "guest", "vhost": name, **every} for name in ["/", *vhosts]]}


def _running(consumer_timeout_ms: int, say: Callable[[str], None]) -> RabbitNode:
    """The process's node, started (or started again, if it died) with `consumer_timeout_ms`."""
    global _node, _timeout_ms
    if _node is not None and (_node.process is None or not _node.process.alive):
        _node.stop()
        _node = None
    if _node is None:
        say("l08.check.step.broker")
        _fresh.clear()
        node = CheckNode(consumer_timeout_ms=consumer_timeout_ms)
        vhosts = [f"check-{next(_numbers)}" for _ in range(AT_BOOT)]
        (node.folder / "definitions.json").write_text(json.dumps(definitions(vhosts)))
        node.extra_conf += (f"load_definitions = {node.folder / 'definitions.json'}",)
        _node = node.start()
        _timeout_ms = consumer_timeout_ms
        _fresh.extend(vhosts)
    return _node


def _prepare(node: RabbitNode, consumer_timeout_ms: int, count: int) -> None:
    """Make the node's consumer_timeout `consumer_timeout_ms` and hold at least `count` fresh virtual hosts."""
    global _timeout_ms
    if _timeout_ms == consumer_timeout_ms and len(_fresh) >= count:
        return
    new = [f"check-{next(_numbers)}" for _ in range(max(BATCH, count))] if len(_fresh) < count else []
    out = node.ctl("eval", _erlang(consumer_timeout_ms, new), timeout=600)
    if not out.strip().endswith("ok"):
        raise RuntimeError(f"rabbitmqctl eval: {out.strip()[-300:]}")
    _timeout_ms = consumer_timeout_ms
    _fresh.extend(new)


@contextlib.contextmanager
def virtual_hosts(consumer_timeout_ms: int, count: int = 1,
                  say: Callable[[str], None] = lambda key: None) -> Iterator[list[VirtualHost]]:
    """`count` virtual hosts never used before, on the process's node with `consumer_timeout_ms`, for one check;
    the next check waits until this one ends. `say(key)` is told the steps worth a line (starting the broker)."""
    with _lock:
        node = _running(consumer_timeout_ms, say)
        _prepare(node, consumer_timeout_ms, count)
        yield [VirtualHost(node, _fresh.pop(0)) for _ in range(count)]


@atexit.register
def stop() -> None:
    """Stop the process's node (at exit; the stack's reaper kills it too if this process dies without exiting)."""
    global _node, _timeout_ms
    if _node is not None:
        _node.stop()
        _node, _timeout_ms = None, None
    _fresh.clear()
