"""Solution / stub markers in exercise cells: validation with line numbers, and stripping per variant."""
from __future__ import annotations

import re

from celerylab.compiler.errors import SourceError

MARKER = re.compile(r"^\s*###\s*(BEGIN|END)\s+(SOLUTION|STUB)\s*$")
LOOSE_MARKER = re.compile(r"^\s*###\s*(BEGIN|END)\s+(SOLUTION|STUB)\b")


def validate(lines: list[tuple[int, str]], allowed: bool, path: object) -> None:
    """Markers must appear only in exercise cells, in BEGIN/END pairs, never nested."""
    opened: tuple[str, int] | None = None
    for lineno, text in lines:
        if LOOSE_MARKER.match(text) and not MARKER.match(text):
            raise SourceError(path, lineno, "build.err.marker_malformed", marker=text.strip())
        match = MARKER.match(text)
        if not match:
            continue
        if not allowed:
            raise SourceError(path, lineno, "build.err.marker_outside_exercise", marker=text.strip())
        edge, region = match.groups()
        if edge == "BEGIN":
            if opened:
                raise SourceError(path, lineno, "build.err.marker_nested", region=region, inside=opened[0])
            opened = (region, lineno)
        elif not opened or opened[0] != region:
            raise SourceError(path, lineno, "build.err.marker_unmatched", marker=text.strip())
        else:
            opened = None
    if opened:
        raise SourceError(path, opened[1], "build.err.marker_unclosed", region=opened[0])


def keep_region(source: str, keep: str) -> str:
    """Keep the `SOLUTION` or `STUB` regions' contents, drop the other regions and every marker line."""
    kept: list[str] = []
    inside: str | None = None
    for text in source.split("\n"):
        match = MARKER.match(text)
        if match:
            edge, region = match.groups()
            inside = region if edge == "BEGIN" else None
            continue
        if inside is None or inside == keep:
            kept.append(text)
    return "\n".join(kept)


def has_markers(source: str) -> bool:
    return any(MARKER.match(line) for line in source.split("\n"))
