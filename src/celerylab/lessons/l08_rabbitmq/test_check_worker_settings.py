"""The long report check reads the pool, concurrency and prefetch from the worker's own `inspect stats` answer."""
from celerylab.lessons.l08_rabbitmq import check_worker_settings
from celerylab.lessons.l08_rabbitmq.check_worker_settings import FIXED, as_fixed, settings


def stats(prefetch: int, concurrency: int = 1, implementation: str = "celery.concurrency.prefork:TaskPool") -> dict:
    return {"pool": {"implementation": implementation, "max-concurrency": concurrency, "processes": [1]},
            "prefetch_count": prefetch, "total": {}}


def test_the_default_prefetch_of_one_prefork_process_is_what_the_statement_fixes():
    assert settings(stats(4)) == FIXED
    assert as_fixed([settings(stats(4)), settings(stats(4))]) == FIXED


def test_a_lowered_prefetch_a_larger_pool_or_another_pool_is_not():
    assert as_fixed([settings(stats(4)), settings(stats(1))])["prefetch_count"] == 1
    assert as_fixed([settings(stats(8, concurrency=2))])["concurrency"] == 2
    assert as_fixed([settings(stats(4, implementation="celery.concurrency.thread:TaskPool"))])["pool"] == "thread"


def test_a_worker_that_never_answered_fails():
    assert as_fixed([settings(stats(4)), None]) is None


def test_an_older_celery_without_the_implementation_still_reads_prefork():
    older = stats(4)
    del older["pool"]["implementation"]
    assert settings(older) == FIXED


def test_it_asks_the_stack_s_first_worker(monkeypatch):
    class Inspect:
        def __init__(self, destination, timeout):
            self.destination = destination

        def stats(self):
            return {name: stats(1) for name in self.destination}

    class Stack:
        workers = [type("Worker", (), {"hostname": "w1@here"})()]
        app = type("App", (), {"control": type("Control", (), {"inspect": staticmethod(Inspect)})()})()

    assert check_worker_settings.runs_with(Stack(), timeout=1)["prefetch_count"] == 1
