"""A second user for a stack's services: in a grading job, the course fakes run as a user the learner's code is not.

A grading job keeps that user as its saved user id (grader/sandbox/confine.py). A service started here
becomes it before exec, so the workers and the kernel (the job's own user) can neither read its
memory, signal it, nor take its port; this process switches to it only to signal its services.
Anywhere else (a notebook, the suite) there is no such user and every call here is a no-op.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager

_switch = threading.Lock()


def uid() -> int | None:
    """The service user: this process's saved user id when it differs from its real one (a confined job)."""
    real, _, saved = os.getresuid()
    return saved if real != 0 and saved != real else None


def become() -> None:
    """In a child, before exec: all of its user and group ids become the service user's (no way back)."""
    target = uid()
    if target is not None:
        gid = os.getresgid()[2]
        os.setresgid(gid, gid, gid)
        os.setresuid(target, target, target)


@contextmanager
def acting():
    """Run the block with the service user as effective user (to signal a service), then back."""
    target = uid()
    if target is None:
        yield
        return
    with _switch:
        own = os.geteuid()
        os.seteuid(target)
        try:
            yield
        finally:
            os.seteuid(own)
