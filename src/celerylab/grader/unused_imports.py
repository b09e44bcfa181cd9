"""Imports grading never uses, refused up front in the grader and the job: jsonschema's optional format checkers.

nbformat imports jsonschema, and jsonschema imports at its own import every optional library its format checker
can use (an IRI grammar, URI and date parsers, colours, JSON pointers, durations with arrow). nbformat validates
notebooks with fastjsonschema and never checks a format, so grading loses nothing without them: each is an
ImportError jsonschema already handles (that format is then not checked). The IRI grammar alone (rfc3987_syntax)
cost about 2 s of CPU per job; the others about 0.1 s more per process.
"""
from __future__ import annotations

import sys

FORMAT_CHECKERS = ("rfc3987_syntax", "rfc3987", "rfc3986_validator", "rfc3339_validator", "fqdn", "webcolors",
                   "jsonpointer", "uri_template", "isoduration")


def refuse() -> list[str]:
    """Make importing each of FORMAT_CHECKERS fail in this process (unless it is imported already); returns those."""
    refused = [name for name in FORMAT_CHECKERS if name not in sys.modules]
    for name in refused:
        sys.modules[name] = None  # type: ignore[assignment]
    return refused
