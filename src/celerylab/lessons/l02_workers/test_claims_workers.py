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
        observe.equal(early=(views.outcome(results[3]), "FAILURE WorkerLostError"),
                      early_runs=(len(starts["early"]), 1),
                      acks_late=(views.outcome(results[0]), "FAILURE WorkerLostError"),
                      acks_late_runs=(len(starts["plain"]), 1), reject_state=(results[1].state, "SUCCESS"),
                      reject_redelivered=([e["redelivered"] for e in starts["reject"]], [False, True]),
                      retry_state=(results[2].state, "SUCCESS"),
                      retry_retries=([e["retries"] for e in starts["retry"]], [0, 1]))


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
        # the head of the queue would give A, A, B, C
        observe.equal(waiting_in_redis=(waiting, 2), start_order=(order, ["A", "B", "C", "A"]))


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
        observe(redelivered=[e["redelivered"] for e in starts])
        observe.equal(acknowledged_as_success=("succeeded before" in handled[0], True), runs=(len(starts), 1),
                      state=(result.state, "SUCCESS"), why=f"the worker logged {handled[0]!r}")


def test_acks_on_timeout_false_requeues_a_task_killed_by_its_time_limit(lab, observe):
    spec = helpers.worker("timeout", task_acks_late=True, task_acks_on_timeout=False,
                          broker_transport_options=helpers.lab_transport(visibility_timeout=10))
    with helpers.experiment(lab, spec) as s:
        result = tasks.hard_limited.apply_async(("requeued-timeout", 1.5), queue="timeout")
        received = f"l02.hard_limited[{result.id}] received"   # once per delivery of the message
        helpers.wait_for(lambda: s.workers[0].logs.count(received) >= 2, timeout=4)
        deliveries = s.workers[0].logs.count(received)
        observe.equal(delivered_again=(deliveries >= 2, True), state=(result.state, "FAILURE"),
                      why=f"{deliveries} deliveries")


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
        observe(soft_state=results["soft"].state)
        observe.equal(warm_state=(results["warm"].state, "SUCCESS"),
                      warm_finished=(bool(runs.events(s, "warm", "end")), True),
                      cold_state=(results["cold"].state, "RETRY"),
                      cold_finished=(bool(runs.events(s, "cold", "end")), False),
                      cold_requeued=(runs.queued(s, "cold"), 0),
                      soft_finished=(bool(runs.events(s, "soft", "end")), False),
                      soft_requeued=(runs.queued(s, "soft"), 1),
                      soft_restored_in_log=("Restoring 1 unacknowledged message(s)" in workers["soft"].logs, True),
                      short_finished=(bool(runs.events(s, "short", "end")), True),
                      short_waited_whole_timeout=(exits["short"][0] >= 2.0, True),
                      why=f"short's shutdown took {exits['short'][0]:.2f} s")


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
        observe.equal(soft_shutdown_busy=(waited["busy"], True), soft_shutdown_idle=(waited["idle"], False))


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
        # a warm shutdown would have waited: SUCCESS, nothing queued
        observe.equal(late_state=(views.outcome(late), "FAILURE WorkerLostError"),
                      late_signal_15=("signal 15" in str(late.result), True),
                      late_queued=(runs.queued(s, "late"), 0), unacked=(runs.unacked(s), 0),
                      recipe_state=(recipe.state, "PENDING"), recipe_queued=(runs.queued(s, "recipe"), 1),
                      finished=([bool(runs.events(s, q, "end")) for q in results], [False, False]),
                      why=f"the late task's result: {late.result!r}")


def test_cold_shutdown_requeues_an_acks_late_task_and_stores_no_state(lab, observe):
    spec = helpers.worker("late", task_acks_late=True, broker_transport_options=helpers.lab_transport(10))
    with helpers.experiment(lab, spec) as s:
        result = tasks.work.apply_async(("cold-late", 3), queue="late")
        runs.wait(s, "cold-late")
        s.workers[0].shutdown(cold=True)
        observe.equal(state=(result.state, "PENDING"), finished=(bool(runs.events(s, "cold-late", "end")), False),
                      requeued=(runs.queued(s, "late"), 1))


def test_only_prefork_enforces_time_limits(lab, observe):
    pools = ("prefork", "solo", "threads")
    with helpers.experiment(lab, *[helpers.worker(p, concurrency=1 if p == "solo" else 2, pool=p)
                                   for p in pools]) as s:
        sent = {(p, k): task.apply_async((f"{k}-{p}", 1.5), queue=p)
                for p in pools for k, task in (("soft", tasks.soft_limited), ("hard", tasks.hard_limited))}
        for result in sent.values():
            result.get(timeout=10, propagate=False)
        limited = {"soft": "FAILURE SoftTimeLimitExceeded", "hard": "FAILURE TimeLimitExceeded"}
        observe.equal(**{f"{pool}_{kind}": (views.outcome(sent[pool, kind]),
                                            limited[kind] if pool == "prefork" else "SUCCESS")
                         for pool in pools for kind in ("soft", "hard")},
                      **{f"{pool}_cleanup_ran": (bool(runs.events(s, f"soft-{pool}", "cleanup")), pool == "prefork")
                         for pool in pools})


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
        observe.equal(late_back_in_queue=(back, True), late_back_within_1s=(back_within_1s, True),
                      early_in_queue=(early_queued, 0))
        helpers.restart_all(s.workers)
        late_runs = len(runs.wait(s, "rabbit-late", count=2, timeout=10))
        observe.equal(late_runs=(late_runs, 2))
        helpers.rabbitmq_delete(s, queues.values())
