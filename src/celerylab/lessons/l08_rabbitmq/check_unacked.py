"""The reminder check's view from the broker: messages delivered on a virtual host's channels and not acknowledged
yet, as the node counts them, whatever the worker answers or logs."""
from __future__ import annotations

import re
import threading
import time
from pathlib import Path

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

EARLY = 0.5       # seconds before it is due that a reminder may be delivered (the check's EARLY)
AFTER_RUN = 1.5   # seconds after a reminder started running from which it is surely acknowledged (acked at its start)
SETTLED = 0.3     # seconds after l08.remind_later logged its send from which its own message is surely acknowledged


STARTED_WITHIN = 60.0  # seconds the CLI may take to boot and start sampling (alone: about 1 s)
SAMPLE_EVERY_MS = 200  # how often the node samples its channels' unacknowledged counts


def sampler(vhost: str, until_ms: int, path: str) -> str:
    """The Erlang one `rabbitmqctl eval` runs inside the node: every SAMPLE_EVERY_MS ms until `until_ms` (Unix ms) or
    until a file `<path>.stop` exists,
    the messages delivered on `vhost`'s channels and not yet acknowledged, with the node's clock: [{Ms, Count}], written
    to `path` (the CLI prints a long answer cut short). One CLI boot for every reading (each boot costs ~2 s of CPU),
    each stamped when it was read."""
    return ("Sample = fun() -> lists:sum([proplists:get_value(messages_unacknowledged, I, 0) "
            "|| P <- rabbit_channel:list_local(), "
            "I <- [catch rabbit_channel:info(P, [vhost, messages_unacknowledged])], is_list(I), "
            f"proplists:get_value(vhost, I) =:= <<\"{vhost}\">>]) end, "
            f"Loop = fun L(Acc) -> T = os:system_time(millisecond), "
            f"case T > {until_ms} orelse filelib:is_file(\"{path}.stop\") of true -> lists:reverse(Acc); "
            f"false -> C = Sample(), timer:sleep({SAMPLE_EVERY_MS}), L([{{T, C}} | Acc]) end end, "
            f"file:write_file(\"{path}.started\", <<>>), "
            f"file:write_file(\"{path}\", io_lib:format(\"~w~n\", [Loop([])])).")


def readings(out: str) -> list[tuple[float, float, int]]:
    """`sampler`'s answer as (when, when, count) readings, the time in seconds."""
    return [(int(ms) / 1000, int(ms) / 1000, int(count)) for ms, count in re.findall(r"\{(\d+),(\d+)\}", out)]


class BrokerHeld:
    """Samples, inside the node, the messages delivered on `host`'s virtual host and not yet acknowledged, from now
    until it is left (at most `seconds`): the channel counts a delivery the instant it is made, for any queue type (a quorum queue's own
    statistics lag), whatever the worker answers or logs."""

    def __init__(self, host, seconds: float, path: Path | None = None):
        self.host, self.path = host, path
        self.readings: list[tuple[float, float, int]] = []
        self.until_ms = int((time.time() + seconds) * 1000)
        self._thread = threading.Thread(target=self._watch, daemon=True, name="l08-unacked")

    def _watch(self) -> None:
        try:
            self.host.ctl("eval", sampler(self.host.name, self.until_ms, str(self.path)), timeout=120)
            self.readings = readings(self.path.read_text()) if self.path is not None else []
        except Exception:  # a CLI that timed out on a loaded machine, no file: no reading
            return

    def __enter__(self) -> "BrokerHeld":
        self._thread.start()
        return self

    def wait_started(self, timeout: float = STARTED_WITHIN) -> None:
        """Wait until the node samples (its CLI boots in seconds at load; a case it does not see proves nothing)."""
        until(lambda: self.path is None or Path(f"{self.path}.started").exists() or not self._thread.is_alive(),
              timeout, step=0.05)

    def __exit__(self, *exc) -> None:
        if self.path is not None:
            Path(f"{self.path}.stop").touch()
        self._thread.join(max(5.0, self.until_ms / 1000 - time.time() + 60))

    def held(self, stack, dues: dict, first_run: dict) -> int:
        """The most messages unacknowledged in a reading made while no reminder could be legitimately in the worker:
        after every l08.remind_later sent its reminder, and before the next reminder was due (or since the last one
        started running)."""
        sends = [float(line[-1]) for label in dues for line in helpers.runs(stack, f"{label}:sent")]
        if len(sends) < len(dues):
            return 0  # a reminder never scheduled: the runs' criteria judge it
        windows, begin = [], max(sends) + SETTLED
        for label in sorted(dues, key=dues.__getitem__):
            windows.append((begin, dues[label] - EARLY))
            begin = (first_run.get(label) or float("inf")) + AFTER_RUN
        return max([count for began, ended, count in self.readings
                    if any(start <= began and ended <= end for start, end in windows)], default=0)
