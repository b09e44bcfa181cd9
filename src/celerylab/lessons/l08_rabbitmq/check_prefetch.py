"""The long report check's view from the broker: the prefetch RabbitMQ applies to the worker's task consumer, as the
node holds it, whatever the worker answers `inspect stats`."""
from __future__ import annotations

import re
import threading
import time
from pathlib import Path

SAMPLE_EVERY_MS = 200  # how often the node reads its consumers' prefetch
SAMPLES_AT_MOST = 300.0  # seconds the node samples if the check never stops it
ANSWER_WITHIN = 120.0  # seconds the CLI may take to boot and answer (alone: about 1 s; far more on a loaded machine)


def sampler(vhost: str, until_ms: int, path: str) -> str:
    """The Erlang one `rabbitmqctl eval` runs inside the node: every SAMPLE_EVERY_MS ms, at least once and then until
    `until_ms` (Unix ms) or until a file `<path>.stop` exists, the prefetch of every consumer on `vhost` that acknowledges
    its messages (a task consumer; the worker's control and event consumers do not) as {its own prefetch_count, its
    channel's global_prefetch_count}: every pair seen, once each."""
    return ("Sample = fun() -> [{proplists:get_value(prefetch_count, C), proplists:get_value(global_prefetch_count, I)} "
            f"|| C <- rabbit_amqqueue:consumers_all(<<\"{vhost}\">>), proplists:get_value(ack_required, C) =:= true, "
            "I <- [catch rabbit_channel:info(proplists:get_value(channel_pid, C), [global_prefetch_count])], "
            "is_list(I)] end, "
            "Loop = fun L(Acc) -> Seen = lists:usort(Sample() ++ Acc), "
            f"case os:system_time(millisecond) > {until_ms} orelse filelib:is_file(\"{path}.stop\") of "
            f"true -> Seen; false -> timer:sleep({SAMPLE_EVERY_MS}), L(Seen) end end, "
            "Loop([]).")


def limits(out: str) -> list[int]:
    """`sampler`'s answer as the limits RabbitMQ applied: per pair, the smaller of the consumer's and the channel's
    prefetch that is set (0: no limit at all, as before the worker's first basic.qos)."""
    found = []
    for own, channel in re.findall(r"\{(\d+),(\d+)\}", out):
        set_ = [int(value) for value in (own, channel) if int(value)]
        found.append(min(set_) if set_ else 0)
    return sorted(set(found))


def lowest(found: list[int] | None) -> int | None:
    """The lowest prefetch limit the node applied (None: it never read one, or only "no limit", which a worker applies
    for an instant at start, before its first basic.qos)."""
    return min((limit for limit in found or [] if limit), default=None)


class BrokerPrefetch:
    """Samples, inside the node, the prefetch RabbitMQ applies to the task consumers on `host`'s virtual host, from now
    until it is left (once at least; one CLI boot in all): a module that lowers it behind Celery's back (`inspect stats`
    still saying 4) shows here."""

    def __init__(self, host, path: Path):
        self.host, self.path = host, path
        self.found: list[int] | None = None
        self.until_ms = int((time.time() + SAMPLES_AT_MOST) * 1000)
        self._thread = threading.Thread(target=self._watch, daemon=True, name="l08-prefetch")

    def _watch(self) -> None:
        try:
            self.found = limits(self.host.ctl("eval", sampler(self.host.name, self.until_ms, str(self.path)),
                                              timeout=ANSWER_WITHIN + SAMPLES_AT_MOST))
        except Exception:  # a CLI that timed out on a loaded machine: no reading
            return

    def __enter__(self) -> "BrokerPrefetch":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        Path(f"{self.path}.stop").touch()
        self._thread.join(ANSWER_WITHIN)

    def lowest(self) -> int | None:
        """The lowest limit sampled (see `lowest`)."""
        return lowest(self.found)
