"""The Celery command lines of the stack's processes: a worker's flags from its WorkerSpec, extra arguments last."""
from __future__ import annotations

from celerylab.stack import WorkerSpec
from celerylab.stack.celery_commands import beat_argv, flower_argv, worker_argv


def test_extra_args_end_the_command_line():
    spec = WorkerSpec(pool="prefork", concurrency=2, extra_args=("--max-tasks-per-child", 1))
    argv = worker_argv("app", spec, "w@h")
    assert argv[-2:] == ["--max-tasks-per-child", "1"] and argv[argv.index("-P") + 1] == "prefork"


def test_workers_run_celerys_default_flags():
    argv = worker_argv("app", WorkerSpec(), "w@h")
    assert not {"--without-gossip", "--without-mingle", "--without-heartbeat"} & set(argv)
    off = worker_argv("app", WorkerSpec(extra_args=("--without-heartbeat",)), "w@h")
    assert off[-1] == "--without-heartbeat"


def test_beat_and_flower_command_lines():
    assert beat_argv("app", "/tmp/s", None, 0.2)[-2:] == ["--max-interval", "1"]  # Beat takes whole seconds, >= 1
    assert beat_argv("app", "/tmp/s", "redbeat.RedBeatScheduler", 5)[-2:] == ["-S", "redbeat.RedBeatScheduler"]
    argv = flower_argv("app", 5555, "/tmp/f.db")
    assert argv[argv.index("-A") + 1:argv.index("-A") + 3] == ["app", "flower"] and "--port=5555" in argv


def test_task_events_are_on_unless_the_spec_turns_them_off():
    assert "-E" in worker_argv("app", WorkerSpec(), "w@h")
    assert "-E" not in worker_argv("app", WorkerSpec(task_events=False), "w@h")
    assert WorkerSpec(task_events=False).celery_settings() == {"worker_send_task_events": False}
