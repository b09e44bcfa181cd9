"""Names the grader takes from the file system (folders, files) made safe to write and to print: every byte that is
not UTF-8 (``os.fsdecode``'s surrogates) as ``\\xff``, every control or bidirectional character as ``\\x1b``,
``\\u202e``. The result is valid UTF-8, stays on one line and cannot drive a terminal or reorder the text."""
from __future__ import annotations

import re

# C0 and C1 controls, DEL, and the bidirectional marks, embeddings, overrides and isolates
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(match: re.Match) -> str:
    char = match.group()
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def safe_name(name: str) -> str:
    """`name` (as os.fsdecode gives it) printable and writable as UTF-8: unsafe characters escaped."""
    return _UNSAFE.sub(_escaped, name)


def safe_text(text: str) -> str:
    """Like safe_name for a longer text that may keep its line breaks and tabs (feedback, error messages)."""
    return "\n".join(_UNSAFE.sub(lambda m: "\t" if m.group() == "\t" else _escaped(m), line)
                     for line in text.replace("\r\n", "\n").split("\n"))


