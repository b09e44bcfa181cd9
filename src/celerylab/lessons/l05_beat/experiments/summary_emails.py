"""The incident's naive summary (one e-mail per run) on the stacks of beat_copies: e-mails per complete period."""
import time
from dataclasses import dataclass

from celerylab.lessons.l05_beat import helpers
from celerylab.lessons.l05_beat.experiments.beat_copies import BeatCopies


@dataclass
class SummaryEmails:
    per_period: dict[str, int]  # case -> e-mails per complete period since the window opened (averaged, rounded)


def summary_emails(copies: BeatCopies, close: bool = True) -> SummaryEmails:
    time.sleep(helpers.PERIOD_SECONDS)  # one more "week" (2 s here) of l05.summary_naive, sent by every Beat
    t2 = time.time()
    for stack in copies.stacks.values():  # every sender's later tick ran, so the window's summaries did too
        helpers.runs(stack, copies.t0, t2, settle=15)
    seen = SummaryEmails({case: helpers.average_per_period(stack, copies.t0, t2)
                          for case, stack in copies.stacks.items()})
    if close:
        for stack in copies.stacks.values():
            stack.close()
    return seen
