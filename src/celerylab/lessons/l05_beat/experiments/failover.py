"""The RedBeat lock's holder stopped with SIGTERM, then the next holder with SIGKILL: when another Beat takes over."""
import time
from dataclasses import dataclass

from celerylab.lessons.l05_beat import helpers


@dataclass
class Takeover:
    signal: str
    stopped: str          # the Beat that held the lock
    successor: str        # the Beat that took it
    lock_ttl: float       # seconds the lock had left when the holder was stopped
    released: bool        # the stopped Beat logged "beat: Releasing lock"
    seconds: float        # from the signal until the successor logged "Acquired lock"
    send_gap: float       # from the stopped Beat's last send to the successor's first


def failover(stack, holder, t0: float, signals=("SIGTERM", "SIGKILL")) -> list[Takeover]:
    takeovers = []
    for signal in signals:
        ttl = helpers.lock_ttl(stack)
        began = time.monotonic()
        if signal == "SIGTERM":
            holder.terminate()  # a clean stop (kubectl delete pod): RedBeat releases the lock
        else:
            holder.kill()       # an OOM kill, a lost node: nobody releases anything
        successor = helpers.lock_holder(stack, exclude=(holder,))
        seconds = time.monotonic() - began
        gap = helpers.send_gap(stack, t0, holder.name, successor.name)
        takeovers.append(Takeover(signal, holder.name, successor.name, ttl, "Releasing lock" in holder.logs,
                                  seconds, gap))
        holder = successor
    return takeovers
