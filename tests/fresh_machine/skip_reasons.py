"""The skips of a pytest run (its `-rs` summary), counted by reason, and whether each reason says how to get what the
machine lacks. `python tests/fresh_machine/skip_reasons.py LOG` prints them, most frequent first."""
from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

# `SKIPPED [3] tests/x.py:12: reason`, or without the line for a module's mark (pytest's short summary; xdist's too)
SKIPPED = re.compile(r"^SKIPPED \[(\d+)\] [^\s:]+(?::\d+)?: (.*)$")
# A way to get what is missing: a package manager's install, a set-up script of the project, a command to run, or what
# to run the suite as. A reason with none of these says what is missing but not what to do about it.
WAYS = re.compile(r"\b(apt|apt-get|dnf|brew|pip|npm) install\b|\.ci/setup-|\bsudo\b|\bas root\b|python -m \S+"
                  r"|celerylab build|\brun the suite\b|\bmount \S+ on\b|\bchmod\b|PIP_INDEX_URL")


def skips(output: str) -> Counter[str]:
    """Each skip reason of `output`'s short summary with the number of tests it skipped."""
    counted: Counter[str] = Counter()
    for line in output.splitlines():
        found = SKIPPED.match(line.strip())
        if found:
            counted[found.group(2).strip()] += int(found.group(1))
    return counted


def says_how(reason: str) -> bool:
    return WAYS.search(reason) is not None


def without_a_way(reasons) -> list[str]:
    """The reasons that do not say how to get what they lack."""
    return sorted(reason for reason in reasons if not says_how(reason))


if __name__ == "__main__":
    counted = skips(Path(sys.argv[1]).read_text(errors="replace"))
    for reason, count in counted.most_common():
        print(f"{count:5}  {'' if says_how(reason) else '[no way to get it] '}{reason}")
    print(f"{sum(counted.values()):5}  skipped, {len(counted)} reasons, {len(without_a_way(counted))} without a way")
