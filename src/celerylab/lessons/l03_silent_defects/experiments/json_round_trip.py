"""One round trip per value through l03.describe, which returns the type and value of what reached the worker."""
import collections
import dataclasses
import datetime
import decimal
import enum
import uuid

from kombu.exceptions import EncodeError

from celerylab.lessons.l03_silent_defects import tasks


class User:
    def __init__(self, id):
        self.id = id


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Level(enum.IntEnum):
    HIGH = 3


Pair = collections.namedtuple("Pair", "a b")
VALUES = {
    "{3, 7}": {3, 7}, "User(5)": User(5), "Point(1, 2)": Point(1, 2), "timedelta(seconds=5)": datetime.timedelta(seconds=5),
    "{(1, 2): 'x'}": {(1, 2): "x"}, "{1: 'a'}": {1: "a"}, "(1, 2)": (1, 2), "Pair(1, 2)": Pair(1, 2),
    "Level.HIGH": Level.HIGH, "datetime(-03:00)": datetime.datetime(2024, 3, 1, 12, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=-3))),
    "date(2024, 3, 1)": datetime.date(2024, 3, 1), "Decimal('1.10')": decimal.Decimal("1.10"),
    "UUID(...)": uuid.UUID("12345678-1234-5678-1234-567812345678"), "b'\\xff\\x00'": b"\xff\x00",
}


@dataclasses.dataclass
class RoundTrip:
    failed: dict[str, EncodeError]  # sent -> what .delay() raised in the caller
    arrived: dict[str, str]         # sent -> what the worker received (type and value)


def json_round_trip(values: dict = VALUES) -> RoundTrip:
    failed, sent = {}, {}
    for label, value in values.items():
        try:
            sent[label] = tasks.describe.delay(value)
        except EncodeError as error:
            failed[label] = error
    return RoundTrip(failed, {label: result.get(timeout=10) for label, result in sent.items()})
