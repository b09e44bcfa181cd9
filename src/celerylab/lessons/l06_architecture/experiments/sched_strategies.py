"""The prefork pool's scheduling strategy for each -O value: which one the pool uses when none is given."""
from dataclasses import dataclass

from celery.concurrency.asynpool import SCHED_STRATEGIES


@dataclass
class Strategies:
    table: dict        # -O <name> -> the strategy's number (1 = fcfs, 4 = fair), as Celery maps them
    without_o: int     # no -O at all (the None key)
    default: int       # -O default
    fair: int          # -O fair


def sched_strategies() -> Strategies:
    return Strategies(dict(SCHED_STRATEGIES), SCHED_STRATEGIES[None], SCHED_STRATEGIES["default"],
                      SCHED_STRATEGIES["fair"])
