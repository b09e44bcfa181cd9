"""Lesson 08's claims on a private RabbitMQ node: the ack timeout kills the worker; what the fixes change; quorum queues' native delay and delivery limit."""
from __future__ import annotations

import celery
import pytest

from celerylab.lessons.l08_rabbitmq import helpers, rabbitmq_node, scenarios
from celerylab.lessons.l08_rabbitmq.rabbitmq_node import RabbitNode

CELERY = tuple(int(part) for part in celery.__version__.split(".")[:2])
pytestmark = [pytest.mark.live, pytest.mark.needs("rabbitmq-server")]


@pytest.fixture(scope="module")
def node():
    with RabbitNode(consumer_timeout_ms=helpers.LAB_TIMEOUT_MS) as running:
        yield running


@pytest.fixture
def raised(node):
    """The node's consumer_timeout at 30 s for one test, back to the lab's 3 s afterwards."""
    helpers.set_consumer_timeout(node, 30000)
    yield node
    helpers.set_consumer_timeout(node, helpers.LAB_TIMEOUT_MS)


def test_the_private_node_reads_back_its_short_timeout(node, observe):
    observe(consumer_timeout_ms=node.consumer_timeout(), production_ms=rabbitmq_node.PRODUCTION_TIMEOUT_MS)
    assert node.consumer_timeout() == 3000
    assert node.version() != "?"


def test_an_acks_late_task_longer_than_the_timeout_exits_the_worker_and_runs_again(node, observe):
    seen = scenarios.long_task(node, task_acks_late=True)
    observe(ack_timeout="Timeout value used: 3000 ms" in seen["ack_timeout"], worker_alive=seen["worker_alive"],
            state=seen["state"], ran=seen["ran"], back_in_queue=seen["back_in_queue"],
            ran_after_restart=seen["ran_after_restart"])
    assert "Timeout value used: 3000 ms" in seen["ack_timeout"]
    assert seen["worker_alive"] is False and seen["exited_after"] >= seen["timeout_after"]
    assert (seen["state"], seen["ran"], seen["finished"], seen["back_in_queue"]) == ("SUCCESS", 1, 1, 1)
    assert seen["ran_after_restart"] == 2


def test_a_countdown_task_held_in_the_worker_exits_it_with_the_early_ack(node, observe):
    seen = scenarios.delayed_task(node)
    observe(held=seen["held_by_worker"], ack_timeout=bool(seen["ack_timeout"]), worker_alive=seen["worker_alive"],
            ran=seen["ran"], back_in_queue=seen["back_in_queue"])
    assert seen["held_by_worker"] == 1 and seen["ack_timeout"]
    assert (seen["worker_alive"], seen["ran"], seen["back_in_queue"]) == (False, 0, 1)


def test_the_per_queue_argument_is_ignored_by_rabbitmq_3_10(node, observe):
    seen = scenarios.long_task(node, arguments={"x-consumer-timeout": 60000}, task_acks_late=True)
    observe(version=node.version().rsplit(".", 1)[0], ack_timeout="Timeout value used: 3000 ms" in seen["ack_timeout"])
    assert "Timeout value used: 3000 ms" in seen["ack_timeout"]


def test_the_early_ack_lets_the_next_prefetched_message_time_out(node, observe):
    seen = scenarios.early_ack_second(node)
    observe(**{key: seen[key] for key in ("died", "first", "second", "second_ran", "back_in_queue")})
    assert seen["died"] and seen["first"] == "SUCCESS"
    assert (seen["second"], seen["second_ran"], seen["back_in_queue"]) == ("PENDING", 0, 1)


def test_native_delayed_delivery_needs_a_quorum_queue_behind_a_non_direct_exchange(node, observe):
    delays = scenarios.side_by_side({
        "classic": lambda: scenarios.delayed_task(node),
        "direct": lambda: scenarios.delayed_task(node, queue_type="quorum"),
        "topic": lambda: scenarios.delayed_task(node, queue_type="quorum", exchange_type="topic"),
    })
    topic = delays["topic"]
    observe(**{f"{name}_{key}": delays[name][key] for name in delays
               for key in ("warned_direct", "held_by_worker", "worker_alive", "ran")},
            topic_levels=[topic["levels"]["exchanges"], topic["levels"]["queues"]],
            topic_not_early=topic["waited"] is not None and topic["waited"] >= scenarios.COUNTDOWN - 0.5)
    for name in ("classic", "direct"):
        assert delays[name]["held_by_worker"] == 1 and delays[name]["ack_timeout"]
        assert (delays[name]["worker_alive"], delays[name]["ran"]) == (False, 0)
    assert delays["direct"]["warned_direct"] and not delays["classic"]["warned_direct"]
    assert (topic["held_by_worker"], topic["worker_alive"], topic["ran"], topic["ack_timeout"]) == (0, True, 1, "")
    assert topic["waited"] >= scenarios.COUNTDOWN - 0.5
    assert (topic["levels"]["exchanges"], topic["levels"]["queues"]) == (29, 28)


def test_a_schedule_in_the_application_database_holds_nothing_in_the_worker_and_runs_once_not_early(node, observe):
    seen = scenarios.db_schedule(node)
    observe(held=seen["held_by_worker"], unacked=seen["unacked"], ack_timeout=bool(seen["ack_timeout"]),
            worker_alive=seen["worker_alive"], ran=seen["ran"], marked_sent=seen["marked_sent"],
            not_early=seen["late"] is not None and seen["late"] >= 0)
    assert (seen["held_by_worker"], seen["unacked"], seen["ack_timeout"], seen["worker_alive"]) == (0, 0, "", True)
    assert (seen["ran"], seen["marked_sent"]) == (1, True)
    assert seen["late"] >= 0  # sent at the first poll after its time, never before


def test_a_delayed_task_whose_worker_dies_runs_once_when_a_worker_is_back_native_or_classic(node, observe):
    deaths = scenarios.side_by_side({
        f"{kind}_{sig}": lambda native=(kind == "native"), sig=sig: scenarios.death_while_delayed(
            node, native=native, sig=sig)
        for kind in ("native", "classic") for sig in ("SIGKILL", "SIGTERM")})
    observe(**{f"{name}_{key}": seen[key] for name, seen in deaths.items()
               for key in ("held_by_worker", "warm_shutdown", "in_queue_while_down", "ran_while_down", "ran")})
    for name, seen in deaths.items():
        native, sig = name.split("_")[0] == "native", name.split("_")[1]
        assert seen["held_by_worker"] == (0 if native else 1), name
        assert seen["warm_shutdown"] is (sig == "SIGTERM"), name
        assert seen["in_queue_while_down"] == (None if native else 1), name  # RabbitMQ requeued the classic ETA
        assert (seen["ran_while_down"], seen["ran"], seen["ack_timeout"]) == (0, 1, ""), name


def test_a_raised_server_timeout_lets_the_long_task_finish_once(raised, observe):
    seen = scenarios.long_task(raised, task_acks_late=True)
    observe(ack_timeout=bool(seen["ack_timeout"]), worker_alive=seen["worker_alive"], state=seen["state"],
            ran=seen["ran"], back_in_queue=seen["back_in_queue"])
    assert (seen["ack_timeout"], seen["worker_alive"], seen["state"], seen["ran"]) == ("", True, "SUCCESS", 1)
    assert seen["back_in_queue"] == 0


def test_x_delivery_limit_stops_the_poison_after_the_limit_plus_one_runs(raised, observe):
    settings = {"task_acks_late": True, "task_reject_on_worker_lost": True}
    poisons = scenarios.side_by_side({
        "classic": lambda: scenarios.poison(raised, **settings),
        "quorum": lambda: scenarios.poison(raised, arguments={"x-delivery-limit": 2}, **settings),
    })
    observe(classic_more_than_3=poisons["classic"]["looping"], quorum_runs=poisons["quorum"]["runs"],
            quorum_in_queue=poisons["quorum"]["in_queue"],
            alive=[poisons["classic"]["worker_alive"], poisons["quorum"]["worker_alive"]])
    assert poisons["classic"]["looping"]
    assert (poisons["quorum"]["runs"], poisons["quorum"]["in_queue"]) == (3, 0)
    assert poisons["classic"]["worker_alive"] and poisons["quorum"]["worker_alive"]


def test_a_sigkilled_acks_late_task_comes_back_at_once_on_rabbitmq_and_after_the_visibility_timeout_on_redis(
        raised, observe):
    kills = scenarios.side_by_side({"rabbitmq": lambda: scenarios.redelivery(raised),
                                    "redis": lambda: scenarios.redelivery(None)})
    rabbit, redis = kills["rabbitmq"], kills["redis"]
    both = None not in (rabbit["redelivered_after"], redis["redelivered_after"])
    observe(runs=[rabbit["ran"], redis["ran"]], states=[rabbit["state"], redis["state"]],
            rabbitmq_first=both and rabbit["redelivered_after"] < redis["redelivered_after"],
            redis_not_before_visibility=both and redis["since_first_start"] >= scenarios.VISIBILITY - 0.5)
    assert (rabbit["ran"], rabbit["state"]) == (2, "SUCCESS")
    if CELERY < (5, 7):  # measured with 5.5 and 5.6 (and their kombu): the surviving worker does not bring it back
        assert (redis["ran"], redis["state"]) == (1, "PENDING")
        return
    assert (redis["ran"], redis["state"]) == (2, "SUCCESS")
    assert rabbit["redelivered_after"] < redis["redelivered_after"]
    # the other worker cannot get the Redis message before the visibility timeout (counted from the delivery) expires
    assert redis["since_first_start"] >= scenarios.VISIBILITY - 0.5


def test_delay_with_the_broker_down_raises_after_the_default_publish_retry_policy(observe):
    seen = scenarios.broker_down()
    policy = seen["retry_policy"]
    observe(raised=seen["raised"], publish_retry=seen["publish_retry"], retry_policy=policy,
            not_before_the_policy_pauses=seen["raised_after"] >= 0.6)
    assert seen["publish_retry"] is True
    assert policy == {"max_retries": 3, "interval_start": 0, "interval_step": 0.2, "interval_max": 1}
    assert seen["raised"] == "kombu.exceptions.OperationalError"
    assert seen["raised_after"] >= 0.6  # the policy's pauses, 0 + 0.2 + 0.4 s: a lower bound, not a timing


def test_confirm_publish_puts_the_channel_in_confirm_mode_and_every_message_arrives(node, observe):
    costs = {confirm: scenarios.publish_cost(node, confirm=confirm) for confirm in (False, True)}
    observe(confirm_mode=[costs[False]["confirm_mode"], costs[True]["confirm_mode"]],
            published=[costs[False]["published"], costs[True]["published"]])
    assert (costs[False]["confirm_mode"], costs[True]["confirm_mode"]) == (False, True)
    assert costs[False]["published"] == costs[True]["published"] == scenarios.PUBLISHES


def test_a_memory_alarm_blocks_a_confirming_publisher_and_fools_the_other(raised, observe):
    alarm = scenarios.memory_alarm(raised)
    off, on = alarm["off"], alarm["on"]
    observe(**{f"{name}_{key}": alarm[name][key] for name in alarm
               for key in ("returned_during_alarm", "in_queue_during_alarm", "in_queue_after")},
            on_returned_once_lifted=on["returned_after"] is not None and on["returned_after"] >= scenarios.ALARMED)
    assert (off["returned_during_alarm"], off["in_queue_during_alarm"], off["in_queue_after"]) == (True, 0, 3)
    assert (on["returned_during_alarm"], on["in_queue_during_alarm"], on["in_queue_after"]) == (False, 0, 3)
    assert on["returned_after"] >= scenarios.ALARMED


def test_after_a_broker_restart_the_worker_consumes_again_and_the_canary_catches_one_that_does_not(raised, observe):
    seen = scenarios.broker_restart(raised)
    observe(lost_connection=seen["lost_connection"], before=seen["before"], alive=seen["after"]["alive"],
            after={"ping": seen["after"]["ping"], "canary": seen["after"]["canary"]}, stopped=seen["stopped"])
    assert seen["before"] == {"ping": True, "canary": True}
    assert seen["lost_connection"] and seen["after"]["alive"]
    assert (seen["after"]["ping"], seen["after"]["canary"]) == (True, True)
    assert seen["stopped"] == {"ping": True, "canary": False}
