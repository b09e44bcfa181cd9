"""Lesson 08's claims per RabbitMQ release (3.10, 4.0, 4.3, each on a private node from its Debian root): the consumer
timeout, the per-queue `x-consumer-timeout`, quorum queues' default delivery limit, the memory high watermark, and what a Celery worker does at the timeout."""
from __future__ import annotations

import pytest

from celerylab.lessons.l08_rabbitmq.experiments.consumer_timeout import set_server_timeout, unacked_delivery
from celerylab.lessons.l08_rabbitmq.experiments.delivery_limit import GIVE_UP, returned_forever
from celerylab.lessons.l08_rabbitmq.experiments.high_watermark import high_watermark
from celerylab.lessons.l08_rabbitmq.experiments.quorum_timeout import acks_late_past_the_timeout_on_a_quorum_queue
from celerylab.stack import rabbitmq_node
from celerylab.stack.errors import StackError
from celerylab.stack.rabbitmq_node import RabbitNode

pytestmark = [pytest.mark.live]
SERVER_TIMEOUT_MS = 3000  # the lab's consumer_timeout, as the lesson's own node has it
PER_QUEUE_MS = 2000       # the queue's x-consumer-timeout, under a server timeout of production's 30 min
CLOSED = ("channel_closed", 406)


@pytest.fixture(scope="module", params=["3.10", "4.0", "4.3"])
def node(request):
    """A private node of the release (skipped, with the reason, where its root is missing or it does not start)."""
    why = rabbitmq_node.missing(request.param)
    if why:
        pytest.skip(why)
    try:
        running = RabbitNode(consumer_timeout_ms=SERVER_TIMEOUT_MS, release=request.param).start()
    except StackError as error:
        pytest.skip(str(error))
    yield running
    running.stop()


@pytest.fixture
def production_server_timeout(node):
    """The node's consumer_timeout at production's 30 min for one test (queues declared meanwhile), back afterwards."""
    set_server_timeout(node, rabbitmq_node.PRODUCTION_TIMEOUT_MS)
    yield node
    set_server_timeout(node, SERVER_TIMEOUT_MS)


def test_the_node_runs_its_release(node, observe):
    observe.equal(line=(node.version().rsplit(".", 1)[0], node.release))


def test_an_unacknowledged_delivery_past_the_consumer_timeout(node, observe):
    seen = {kind: unacked_delivery(node, kind) for kind in ("classic", "quorum")}
    # 3.10 and 4.0 close the channel (406 PRECONDITION_FAILED) on both; 4.3 leaves a classic queue's consumer alone
    # and cancels a quorum queue's consumer (basic.cancel), its channel still open
    wanted = {"3.10": {"classic": CLOSED, "quorum": CLOSED}, "4.0": {"classic": CLOSED, "quorum": CLOSED},
              "4.3": {"classic": ("none", None), "quorum": ("consumer_cancelled", None)}}[node.release]
    observe.equal(**{f"{kind}_{key}": (seen[kind][key], value) for kind, values in wanted.items()
                     for key, value in zip(("outcome", "reply_code"), values)},
                  delivered=([seen["classic"]["delivered"], seen["quorum"]["delivered"]], [1, 1]), why=seen)
    for kind, values in wanted.items():
        if values[0] != "none":  # not before the server's timeout: a lower bound, not a timing
            assert seen[kind]["after"] >= SERVER_TIMEOUT_MS / 1000 - 0.5, seen


def test_the_per_queue_x_consumer_timeout(production_server_timeout, observe):
    node = production_server_timeout
    arguments = {"x-consumer-timeout": PER_QUEUE_MS}
    seen = {kind: unacked_delivery(node, kind, arguments=arguments, wait=12.0)
            for kind in ("classic", "quorum")}
    # 3.10 ignores the argument (the server's 30 min rule); 4.0 applies it to both; 4.3 refuses it on a classic
    # queue and cancels the quorum queue's consumer at it
    wanted = {"3.10": {"classic": ("none", None), "quorum": ("none", None)},
              "4.0": {"classic": CLOSED, "quorum": CLOSED},
              "4.3": {"classic": ("declare_refused", 406), "quorum": ("consumer_cancelled", None)}}[node.release]
    observe.equal(**{f"{kind}_{key}": (seen[kind][key], value) for kind, values in wanted.items()
                     for key, value in zip(("outcome", "reply_code"), values)}, why=seen)
    if node.release == "4.0":
        assert all(f"Timeout value used: {PER_QUEUE_MS} ms" in seen[kind]["reply_text"] for kind in seen), seen


def test_a_quorum_queue_without_x_delivery_limit_drops_a_message_returned_again_and_again(node, observe):
    seen = {how: returned_forever(node, how) for how in ("reject", "channel_closed", "recover")}
    # 3.10: no default limit (GIVE_UP deliveries, the message still there). 4.0: 20 returns of any kind, then the
    # message is gone (no dead-letter exchange: dropped). 4.3: the same 20 for failed deliveries (reject, a closed
    # channel); a basic.recover is no failure: only x-acquired-count counts it, and the message stays
    give_up = GIVE_UP
    unlimited = {"deliveries": give_up, "dropped": False, "last_delivery_count": give_up - 1,
                 "last_acquired_count": None}
    limited = {"deliveries": 21, "dropped": True, "last_delivery_count": 20, "last_acquired_count": None}
    wanted = {"3.10": dict.fromkeys(seen, unlimited), "4.0": dict.fromkeys(seen, limited),
              "4.3": {"reject": {**limited, "last_acquired_count": 20},
                      "channel_closed": {**limited, "last_acquired_count": 20},
                      "recover": {**unlimited, "last_delivery_count": None, "last_acquired_count": give_up - 1}},
              }[node.release]
    observe.equal(**{f"{how}_{key}": (seen[how][key], value) for how, values in wanted.items()
                     for key, value in values.items()}, why=seen)


def test_an_acks_late_task_past_the_timeout_on_a_quorum_queue_exits_the_worker_or_loops(node, observe):
    seen = acks_late_past_the_timeout_on_a_quorum_queue(node)
    # 3.10 and 4.0: the 406 closes the channel and the worker stops consuming (as on a classic queue). 4.3: the
    # consumer is cancelled, Celery takes it for a lost connection, reconnects and gets the message again: the
    # worker stays up and the task starts again and again, each run outliving the timeout
    looped = {"ack_timeout": False, "consumer_cancelled": True, "alive": True, "runs_again": True}
    closed = {"ack_timeout": True, "consumer_cancelled": False, "alive": None, "runs_again": None}
    wanted = looped if node.release == "4.3" else closed
    observe.equal(**{key: (seen[key], value) for key, value in wanted.items()})


def test_the_default_memory_high_watermark(node, observe):
    observe.equal(high_watermark=(high_watermark(node), 0.4 if node.release == "3.10" else 0.6))
