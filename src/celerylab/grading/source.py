"""Reading a lesson source (lesson.md): each cell's metadata and code, and a cell's solved or stub form."""
from __future__ import annotations

import json
import re
from pathlib import Path

CELL_START = re.compile(r"^\+\+\+ (\{.*\})[ \t]*$", re.M)
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
LANG_BLOCK = re.compile(r"^::: (pt|en)[ \t]*\n(.*?)^:::[ \t]*$", re.M | re.S)
MARKERS = {"solution": ("### BEGIN SOLUTION", "### END SOLUTION"), "stub": ("### BEGIN STUB", "### END STUB")}


def cells(path: str | Path) -> list[tuple[dict, str]]:
    """Every cell of the source as (metadata, body text)."""
    text = Path(path).read_text(encoding="utf-8")
    starts = list(CELL_START.finditer(text))
    return [(json.loads(match.group(1)), text[match.end():starts[i + 1].start() if i + 1 < len(starts) else len(text)])
            for i, match in enumerate(starts)]


def code(body: str, lang: str = "pt") -> str | None:
    """The cell's code in `lang` (a single fence, or the fence inside the language's block)."""
    blocks = {found.group(1): found.group(2) for found in LANG_BLOCK.finditer(body)}
    scope = blocks.get(lang, body) if FENCE.search(blocks.get(lang, "")) else body
    fence = FENCE.search(scope)
    return fence.group(1).rstrip("\n") if fence else None


def markdown(body: str, lang: str = "pt") -> str:
    blocks = {found.group(1): found.group(2) for found in LANG_BLOCK.finditer(body)}
    return blocks.get(lang, body).strip()


def keep(text: str, variant: str) -> str:
    """`variant` "solution" keeps solution blocks and drops stubs; "stub" does the opposite."""
    drop = MARKERS["stub" if variant == "solution" else "solution"]
    kept, dropping = [], False
    for line in text.splitlines():
        marker = line.strip()
        if marker == drop[0]:
            dropping = True
        elif marker == drop[1]:
            dropping = False
        elif not dropping and marker not in MARKERS[variant]:
            kept.append(line)
    return "\n".join(kept)


def exercise_code(path: str | Path, exercise_name: str, lang: str = "pt", variant: str = "solution") -> str | None:
    """The answer cell of exercise `exercise_name`, solved (or stubbed), or None."""
    for meta, body in cells(path):
        if meta.get("exercise") == exercise_name:
            found = code(body, lang)
            return keep(found, variant) if found is not None else None
    return None
