"""The Celery release lines the matrix measures, each with the kombu it ships with."""
from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata


@dataclass(frozen=True)
class Release:
    """One release line: its latest Celery and the kombu line that Celery requires."""

    line: str
    celery: str
    kombu: str

    def pins(self) -> list[str]:
        return [f"celery[redis]=={self.celery}", f"kombu=={self.kombu}"]

    def is_installed(self) -> bool:
        """True when this interpreter already runs exactly this release (the course's own environment)."""
        try:
            return (metadata.version("celery"), metadata.version("kombu")) == (self.celery, self.kombu)
        except metadata.PackageNotFoundError:
            return False


# Oldest first: the page's columns, left to right. Bump a pin when its line gets a new patch release.
RELEASES = (
    Release("5.5", celery="5.5.3", kombu="5.5.4"),
    Release("5.6", celery="5.6.3", kombu="5.6.2"),
    Release("5.7", celery="5.7.0", kombu="5.7.0"),
)

# Pins of constraints.txt that a release line decides for itself (kombu 5.5 caps redis-py at 5.2.1).
RELEASE_DECIDES = ("celery", "kombu", "redis")


def release(line: str) -> Release:
    for known in RELEASES:
        if known.line == line:
            return known
    raise KeyError(line)
