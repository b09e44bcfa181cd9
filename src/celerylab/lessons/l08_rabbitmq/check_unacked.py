"""The reminder check's view from the broker: messages delivered on a virtual host's channels and not acknowledged
yet, as the node counts them (`rabbitmqctl list_channels`), whatever the worker answers or logs."""
from __future__ import annotations

import threading
import time

from celerylab.lessons.l08_rabbitmq import helpers

EARLY = 0.5       # seconds before it is due that a reminder may be delivered (the check's EARLY)
AFTER_RUN = 1.5   # seconds after a reminder started running from which it is surely acknowledged (acked at its start)
SETTLED = 0.3     # seconds after l08.remind_later logged its send from which its own message is surely acknowledged


def unacked(host) -> int | None:
    """Messages delivered on the channels of `host`'s virtual host and not yet acknowledged; None if the node did not
    answer. The channel counts it the instant it delivers, for any queue type (a quorum queue's own statistics lag)."""
    try:
        out = host.ctl("list_channels", "-q", "--no-table-headers", "vhost", "messages_unacknowledged", timeout=60)
    except Exception:  # a CLI that timed out on a loaded machine: no reading
        return None
    counts = [line.split() for line in out.splitlines() if line.strip()]
    return sum(int(fields[-1]) for fields in counts if len(fields) == 2 and fields[0] == host.name and fields[1].isdigit())


class BrokerHeld:
    """Reads `unacked` again and again (each reading with when it began and ended) while the reminders wait."""

    def __init__(self, host):
        self.host, self.readings = host, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="l08-unacked")

    def _watch(self) -> None:
        while not self._stop.is_set():
            began = time.time()
            count = unacked(self.host)
            if count is not None:
                self.readings.append((began, time.time(), count))
            self._stop.wait(0.2)

    def __enter__(self) -> "BrokerHeld":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)

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
