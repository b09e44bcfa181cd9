"""Lesson 02's claims on workers: a lost pool child, warm/cold/soft shutdown, time limits per pool, RabbitMQ's requeue."""
from __future__ import annotations

import signal
import time

import pytest

from celerylab.lessons.l02_workers import helpers, runs, tasks, views

pytestmark = pytest.mark.live


def test_a_killed_child_fails_is_requeued_or_retried(lab, observe):
    vt10 = helpers.lab_transport(visibility_timeout=10)
    options = [dict(task_acks_late=True), dict(task_acks_late=True, task_reject_on_worker_lost=True),
               dict(task_retry_on_worker_lost=True), dict()]
    with helpers.experiment(lab, *[helpers.worker(f"q{i}", broker_transport_options=vt10, **o)
                                   for i, o in enumerate(options)]) as s:
        results = [tasks.work.apply_async(("plain", 3), queue="q0"),  # 3 s: the fourth kill still lands mid-task
                   tasks.work.apply_async(("reject", 3), queue="q1"),
                   tasks.work_retry_lost.apply_async(("retry", 3), queue="q2"),
                   tasks.work.apply_async(("early", 3), queue="q3")]
        for key, worker in zip(("plain", "reject", "retry", "early"), s.workers):
            runs.running_for(s, key, 0.5)
            worker.kill_child()
        for result in results:
            result.get(timeout=15, propagate=False)
        starts = {key: runs.events(s, key, "start") for key in ("plain", "reject", "retry", "early")}
        observe(early=views.outcome(results[3]), early_runs=len(starts["early"]),
                acks_late=views.outcome(results[0]), acks_late_runs=len(starts["plain"]),
                reject_state=results[1].state, reject_redelivered=[e["redelivered"] for e in starts["reject"]],
                retry_state=results[2].state, retry_retries=[e["retries"] for e in starts["retry"]])
        assert views.outcome(results[0]) == views.outcome(results[3]) == "FAILURE WorkerLostError"
        assert len(runs.events(s, "early", "start")) == 1
        assert len(runs.events(s, "plain", "start")) == 1
        reject = runs.events(s, "reject", "start")
        assert results[1].state == "SUCCESS" and [e["redelivered"] for e in reject] == [False, True]
        retry = runs.events(s, "retry", "start")
        assert results[2].state == "SUCCESS" and [e["retries"] for e in retry] == [0, 1]


def test_a_rejected_message_goes_to_the_end_of_the_queue(lab, observe):
    spec = helpers.worker("order", task_acks_late=True, task_reject_on_worker_lost=True, worker_prefetch_multiplier=1,
                          broker_transport_options=helpers.lab_transport(visibility_timeout=10))
    with helpers.experiment(lab, spec) as s:
        for key in ("A", "B", "C"):
            tasks.work.apply_async((key, 1), queue="order")
        runs.running_for(s, "A", 0.3)
        waiting = runs.queued(s, "order")
        s.workers[0].kill_child()
        runs.wait(s, "A", count=2, timeout=15)
        order = [key for _, key in sorted((e["at"], key) for key in "ABC" for e in runs.events(s, key, "start"))]
        observe(waiting_in_redis=waiting, start_order=order)
        assert waiting == 2
        assert order == ["A", "B", "C", "A"]  # the head of the queue would give A, A, B, C


def test_a_child_lost_after_success_is_acknowledged_not_run_again(lab, observe):
    spec = helpers.worker("lost", task_acks_late=True, task_reject_on_worker_lost=True,
                          broker_transport_options=helpers.lab_transport(visibility_timeout=10))
    with helpers.experiment(lab, spec) as s:
        worker = s.workers[0]
        offset = worker.log_offset()
        result = tasks.exit_after_success.apply_async(("lost-after",), queue="lost")
        handled = worker.wait_for_log(r"succeeded before the worker was lost|Task handler raised error: WorkerLostError",
                                      timeout=10, since=offset)
        starts = runs.wait(s, "lost-after", count=2, timeout=2)
        observe(acknowledged_as_success="succeeded before" in handled[0], runs=len(starts),
                redelivered=[e["redelivered"] for e in starts], state=result.state)
        assert "succeeded before" in handled[0]
        assert len(starts) == 1 and result.state == "SUCCESS"


def test_acks_on_timeout_false_requeues_a_task_killed_by_its_time_limit(lab, observe):
    spec = helpers.worker("timeout", task_acks_late=True, task_acks_on_timeout=False,
                          broker_transport_options=helpers.lab_transport(visibility_timeout=10))
    with helpers.experiment(lab, spec) as s:
        result = tasks.hard_limited.apply_async(("requeued-timeout", 1.5), queue="timeout")
        received = f"l02.hard_limited[{result.id}] received"   # once per delivery of the message
        helpers.wait_for(lambda: s.workers[0].logs.count(received) >= 2, timeout=4)
        deliveries = s.workers[0].logs.count(received)
        observe(delivered_again=deliveries >= 2, state=result.state)
        assert deliveries >= 2 and result.state == "FAILURE"


def test_warm_waits_cold_loses_soft_requeues_and_sleeps_the_whole_timeout(lab, observe):
    vt10 = helpers.lab_transport(visibility_timeout=10)
    remap = {"REMAP_SIGTERM": "SIGQUIT"}
    specs = [helpers.worker("warm", broker_transport_options=vt10),
             helpers.worker("cold", broker_transport_options=vt10),
             helpers.worker("soft", task_acks_late=True, worker_soft_shutdown_timeout=1,
                            broker_transport_options=vt10, env=remap),
             helpers.worker("short", task_acks_late=True, worker_soft_shutdown_timeout=2,
                            broker_transport_options=vt10, env=remap)]
    seconds = {"warm": 1.5, "cold": 3, "soft": 3, "short": 0.5}
    with helpers.experiment(lab, *specs) as s:
        workers = dict(zip(seconds, s.workers))
        results = {q: tasks.work.apply_async((q, sec), queue=q) for q, sec in seconds.items()}
        for q in seconds:
            runs.wait(s, q)
        exits = helpers.in_parallel({"warm": workers["warm"].shutdown,
                                     "cold": lambda: workers["cold"].shutdown(cold=True),
                                     "soft": workers["soft"].shutdown, "short": workers["short"].shutdown})
        observe(warm_state=results["warm"].state, warm_finished=bool(runs.events(s, "warm", "end")),
                cold_state=results["cold"].state, cold_finished=bool(runs.events(s, "cold", "end")),
                cold_requeued=runs.queued(s, "cold"),
                soft_finished=bool(runs.events(s, "soft", "end")), soft_requeued=runs.queued(s, "soft"),
                soft_state=results["soft"].state,
                soft_restored_in_log="Restoring 1 unacknowledged message(s)" in workers["soft"].logs,
                short_finished=bool(runs.events(s, "short", "end")),
                short_waited_whole_timeout=exits["short"][0] >= 2.0)
        assert results["warm"].state == "SUCCESS" and runs.events(s, "warm", "end")
        assert not runs.events(s, "cold", "end") and runs.queued(s, "cold") == 0
        assert results["cold"].state == "RETRY"
        assert not runs.events(s, "soft", "end") and runs.queued(s, "soft") == 1
        assert "Restoring 1 unacknowledged message(s)" in workers["soft"].logs
        assert runs.events(s, "short", "end") and exits["short"][0] >= 2.0


def test_soft_shutdown_waits_only_with_a_task_running(lab, observe):
    remap = {"REMAP_SIGTERM": "SIGQUIT"}
    specs = [helpers.worker(q, task_acks_late=True, worker_soft_shutdown_timeout=2, env=remap,
                            broker_transport_options=helpers.lab_transport(10)) for q in ("busy", "idle")]
    with helpers.experiment(lab, *specs) as s:
        busy, idle = s.workers
        tasks.work.apply_async(("busy", 0.5), queue="busy")
        runs.wait(s, "busy")
        helpers.in_parallel({"busy": busy.shutdown, "idle": idle.shutdown})
        waited = {name: "Initiating Soft Shutdown" in node.logs for name, node in (("busy", busy), ("idle", idle))}
        observe(soft_shutdown_busy=waited["busy"], soft_shutdown_idle=waited["idle"])
        assert waited == {"busy": True, "idle": False}


def test_sigterm_to_the_process_group_loses_an_acks_late_task_and_the_recipe_requeues_it(lab, observe):
    vt10 = helpers.lab_transport(visibility_timeout=10)
    specs = [helpers.worker("late", task_acks_late=True, broker_transport_options=vt10),
             helpers.worker("recipe", task_acks_late=True, worker_soft_shutdown_timeout=1,
                            broker_transport_options=vt10, env={"REMAP_SIGTERM": "SIGQUIT"})]
    with helpers.experiment(lab, *specs) as s:
        results = {q: tasks.work.apply_async((q, 3), queue=q) for q in ("late", "recipe")}
        for q in results:
            runs.running_for(s, q, 0.5)
        helpers.in_parallel({q: (lambda node=node: node.kill(signal.SIGTERM, group=True))
                             for q, node in zip(results, s.workers)})
        late, recipe = results["late"], results["recipe"]
        observe(late_state=views.outcome(late), late_signal_15="signal 15" in str(late.result),
                late_queued=runs.queued(s, "late"), unacked=runs.unacked(s),
                recipe_state=recipe.state, recipe_queued=runs.queued(s, "recipe"),
                finished=[bool(runs.events(s, q, "end")) for q in results])
        assert views.outcome(late) == "FAILURE WorkerLostError" and "signal 15" in str(late.result)
        assert runs.queued(s, "late") == 0 and runs.unacked(s) == 0  # a warm shutdown would have waited: SUCCESS
        assert recipe.state == "PENDING" and runs.queued(s, "recipe") == 1
        assert not runs.events(s, "late", "end") and not runs.events(s, "recipe", "end")


def test_cold_shutdown_requeues_an_acks_late_task_and_stores_no_state(lab, observe):
    spec = helpers.worker("late", task_acks_late=True, broker_transport_options=helpers.lab_transport(10))
    with helpers.experiment(lab, spec) as s:
        result = tasks.work.apply_async(("cold-late", 3), queue="late")
        runs.wait(s, "cold-late")
        s.workers[0].shutdown(cold=True)
        observe(state=result.state, finished=bool(runs.events(s, "cold-late", "end")), requeued=runs.queued(s, "late"))
        assert result.state == "PENDING"
        assert not runs.events(s, "cold-late", "end") and runs.queued(s, "late") == 1


def test_only_prefork_enforces_time_limits(lab, observe):
    pools = ("prefork", "solo", "threads")
    with helpers.experiment(lab, *[helpers.worker(p, concurrency=1 if p == "solo" else 2, pool=p)
                                   for p in pools]) as s:
        sent = {(p, k): task.apply_async((f"{k}-{p}", 1.5), queue=p)
                for p in pools for k, task in (("soft", tasks.soft_limited), ("hard", tasks.hard_limited))}
        for result in sent.values():
            result.get(timeout=10, propagate=False)
        observe(**{f"{pool}_{kind}": views.outcome(sent[pool, kind]) for pool in pools for kind in ("soft", "hard")},
                **{f"{pool}_cleanup_ran": bool(runs.events(s, f"soft-{pool}", "cleanup")) for pool in pools})
        assert views.outcome(sent["prefork", "soft"]) == "FAILURE SoftTimeLimitExceeded"
        assert runs.events(s, "soft-prefork", "cleanup")
        assert views.outcome(sent["prefork", "hard"]) == "FAILURE TimeLimitExceeded"
        for pool in ("solo", "threads"):
            assert sent[pool, "soft"].state == sent[pool, "hard"].state == "SUCCESS"
            assert not runs.events(s, f"soft-{pool}", "cleanup")


def test_rabbitmq_requeues_at_once(lab, observe):
    reachable, why = helpers.rabbitmq_reachable()
    if not reachable:
        pytest.skip(why)
    tag = lab.id + str(int(time.time()))
    queues = {"late": f"l02-late-{tag}", "early": f"l02-early-{tag}"}
    with helpers.experiment(lab, helpers.worker(queues["late"], task_acks_late=True),
                            helpers.worker(queues["early"]), settings={"broker_url": helpers.RABBITMQ_URL}) as s:
        for name, queue in queues.items():
            tasks.work.apply_async((f"rabbit-{name}", 2), queue=queue)
            runs.wait(s, f"rabbit-{name}")
        killed = time.time()
        for worker in s.workers:
            worker.kill()
        back = helpers.wait_for(lambda: helpers.rabbitmq_ready(s, queues["late"]) == 1, timeout=5)
        back_within_1s = time.time() - killed < 1.0
        early_queued = helpers.rabbitmq_ready(s, queues["early"])
        observe(late_back_in_queue=back, late_back_within_1s=back_within_1s, early_in_queue=early_queued)
        assert back
        assert back_within_1s
        assert early_queued == 0
        helpers.restart_all(s.workers)
        late_runs = len(runs.wait(s, "rabbit-late", count=2, timeout=10))
        observe(late_runs=late_runs)
        assert late_runs == 2
        helpers.rabbitmq_delete(s, queues.values())
