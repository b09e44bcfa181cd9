"""Which RabbitMQ the page uses: a URL given, else a private node of the system's rabbitmq-server, else one in a Docker
or Podman container, else none (the page then shows its recorded run); each branch passed over says why."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from urllib.parse import urlparse

from kombu import Connection
from kombu.utils.url import maybe_sanitize_url

from celerylab.i18n import t
from celerylab.lessons.l08_rabbitmq import container
from celerylab.stack import rabbitmq_node
from celerylab.stack.broker import URL_ENV as LAB_BROKER_ENV
from celerylab.stack.errors import StackError
from celerylab.stack.rabbitmq_node import RabbitNode

URL_ENV = "CELERYLAB_RABBITMQ_URL"  # a RabbitMQ for this page; else the lab's broker ($CELERYLAB_BROKER_URL) if AMQP
AMQP = ("amqp", "amqps", "pyamqp")
CONNECT_TIMEOUT = 5.0  # seconds a given URL has to answer


def is_amqp(url: str) -> bool:
    return urlparse(url).scheme in AMQP


def shown(url: str) -> str:
    """A URL as the page prints it: its password masked."""
    return maybe_sanitize_url(url)


class UrlBroker:
    """A RabbitMQ the page did not start and does not manage: ``.url``; ``.ctl(...)`` raises; ``.stop()`` deletes the
    queues the page declared on it (``.declared``), and leaves the rest of the broker as it was."""

    managed = False

    def __init__(self, url: str):
        self.url = url
        self.declared: list[str] = []

    def _server_properties(self) -> dict:
        with Connection(self.url, connect_timeout=CONNECT_TIMEOUT) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0)
            return dict(connection.connection.server_properties)

    def unreachable(self) -> str:
        """"" when the broker answers, else the error."""
        try:
            self._server_properties()
        except Exception as error:  # noqa: BLE001 - any failure to connect is the reason given
            return f"{type(error).__name__}: {error}"
        return ""

    def version(self) -> str:
        version = self._server_properties().get("version", "?")
        return version.decode() if isinstance(version, bytes) else str(version)

    def consumer_timeout(self) -> int | None:
        """Not readable over AMQP: None."""
        return None

    def ctl(self, *args: str, timeout: float = 0) -> str:
        raise StackError("l08.source.not_managed", url=shown(self.url), command=" ".join(args))

    def stop(self) -> None:
        """Delete the queues the page declared (one channel each: deleting a queue that is gone closes its channel)."""
        with Connection(self.url, connect_timeout=CONNECT_TIMEOUT) as connection:
            for queue in self.declared:
                channel = connection.channel()
                try:
                    channel.queue_delete(queue)
                except Exception:  # noqa: BLE001 - already gone: nothing to delete
                    pass
                finally:
                    try:
                        channel.close()
                    except Exception:  # noqa: BLE001 - a channel the broker closed
                        pass
        self.declared.clear()


@dataclasses.dataclass
class Found:
    """The page's RabbitMQ: `kind` ("url", "system", "container" or "recorded"), its node (None: recorded), the
    variable a URL came from, what was missing for the system's node, and one translated line per branch passed over."""

    kind: str
    node: RabbitNode | UrlBroker | None
    notes: list[str] = dataclasses.field(default_factory=list)
    variable: str = ""
    absent: str = ""


def given_url(env: Mapping[str, str], notes: list[str]) -> tuple[str, str] | None:
    """(url, the variable it came from): $CELERYLAB_RABBITMQ_URL, else $CELERYLAB_BROKER_URL when it is AMQP."""
    own = env.get(URL_ENV, "").strip()
    if own and is_amqp(own):
        return own, URL_ENV
    if own:
        notes.append(t("l08.source.not_amqp", variable=URL_ENV, url=shown(own)))
    lab = env.get(LAB_BROKER_ENV, "").strip()
    return (lab, LAB_BROKER_ENV) if lab and is_amqp(lab) else None


def in_container(consumer_timeout_ms: int, notes: list[str]) -> container.RabbitContainer | None:
    """A node in the first container engine that answers and holds a RabbitMQ image; each one passed over, noted."""
    for engine in container.engines():
        name = os.path.basename(engine)
        why = container.answers(engine)
        if why:
            notes.append(t("l08.source.engine_down", engine=name, error=why))
            continue
        image = container.local_image(engine)
        if image is None:
            notes.append(t("l08.source.no_image", engine=name,
                           image=os.environ.get(container.IMAGE_ENV) or container.IMAGE))
            continue
        try:
            return container.RabbitContainer(engine, image, consumer_timeout_ms=consumer_timeout_ms).start()
        except StackError as error:
            notes.append(t("l08.source.failed", what=f"{name} run {image}", error=str(error).splitlines()[0]))
    return None


def find(consumer_timeout_ms: int, env: Mapping[str, str] | None = None) -> Found:
    """The first RabbitMQ of: a URL given, the system's rabbitmq-server, a container; else "recorded"."""
    env = os.environ if env is None else env
    notes: list[str] = []
    given = given_url(env, notes)
    if given is not None:
        url, variable = given
        broker = UrlBroker(url)
        why = broker.unreachable()
        if not why:
            return Found("url", broker, notes, variable=variable)
        notes.append(t("l08.source.url_down", variable=variable, url=shown(url), error=why))
    absent = rabbitmq_node.missing()
    if not absent:
        node = RabbitNode(consumer_timeout_ms=consumer_timeout_ms)
        try:
            return Found("system", node.start(), notes)
        except StackError as error:
            notes.append(t("l08.source.failed", what=rabbitmq_node.program("rabbitmq-server"),
                           error=str(error).splitlines()[0]))
    else:
        notes.append(t("l08.source.no_server", programs=absent))
    found = in_container(consumer_timeout_ms, notes)
    if found is not None:
        return Found("container", found, notes)
    if not container.engines():
        notes.append(t("l08.source.no_engine", engines=", ".join(container.ENGINES)))
    return Found("recorded", None, notes, absent=absent)
