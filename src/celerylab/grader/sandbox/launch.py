"""A grading job's first step, as the grader's user: its memory cgroup and limits, then exec of the sandbox.

``python -P -m celerylab.grader.sandbox.launch MEMORY CPU_SECONDS -- bwrap ... -- python -m celerylab.grader.job``:
everything the job starts is in the cgroup and under the limits from its first instruction. A step that
fails ends here, before any sandbox or learner code exists (the supervisor sees a job that never started).
"""
from __future__ import annotations

import os
import sys

from celerylab.grader.sandbox import confine, job_cgroup

FAILED = 70  # the exit status of a job whose confinement could not be set up


def main(argv: list[str]) -> int:
    memory, cpu_seconds, command = int(argv[0]), float(argv[1]), argv[argv.index("--") + 1:]
    try:
        if os.geteuid() == 0:
            job_cgroup.enter(memory)
        confine.rlimits(cpu_seconds)
    except (OSError, ValueError) as error:
        print(f"celerylab sandbox: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
        return FAILED
    os.execv(command[0], command)
    return FAILED  # never reached: execv replaces this process or raises


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
