"""revoke(id, terminate=True) sent to a solo worker halfway through a 2 s task."""
from dataclasses import dataclass

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class RevokeSolo:
    replies_within_1_s: int
    ended: str  # the task's state once SUCCESS or REVOKED


def revoke_solo(stack: Stack, solo, seconds: float = 2.0) -> RevokeSolo:
    since = solo.log_offset()
    result = stack.app.send_task("l04.slow", (seconds,), queue=solo.spec.queues[0])
    solo.wait_for_log(rf"l04.slow\[{result.id}\] received", timeout=5, since=since)
    replies = stack.app.control.revoke(result.id, terminate=True, destination=[solo.hostname], reply=True,
                                       timeout=1)
    return RevokeSolo(len(replies), helpers.final_state(stack, result.id))
