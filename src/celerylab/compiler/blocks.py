"""A cell body split into its `::: pt` / `::: en` blocks, fence-aware, and the one-fence code test."""
from __future__ import annotations

import io
import re
import tokenize

from celerylab.compiler.errors import SourceError

Lines = list[tuple[int, str]]  # (line number in lesson.md, text)
BLOCK_OPEN = re.compile(r"^:::\s*(\S+)\s*$")
BLOCK_CLOSE = re.compile(r"^:::\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([^`\s]*)")
CODE_INFOS = {"python", "python3", "ipython", "ipython3", "py"}


def split_blocks(body: Lines, path: object, langs: tuple[str, ...]) -> dict[str | None, Lines]:
    """{lang: lines} for a body made of language blocks, or {None: lines} for a body without any."""
    blocks: dict[str | None, Lines] = {}
    bare: Lines = []
    current: tuple[str, int] | None = None
    fence: str | None = None
    for lineno, text in body:
        if fence is None and current is None and BLOCK_OPEN.match(text) and not BLOCK_CLOSE.match(text):
            lang = BLOCK_OPEN.match(text).group(1)
            if lang not in langs:
                raise SourceError(path, lineno, "build.err.unknown_lang_block", language=lang)
            if lang in blocks:
                raise SourceError(path, lineno, "build.err.duplicate_block", language=lang)
            current, blocks[lang] = (lang, lineno), []
            continue
        if fence is None and current is not None and BLOCK_CLOSE.match(text):
            current = None
            continue
        fence = _track_fence(fence, text)
        if current is not None:
            blocks[current[0]].append((lineno, text))
        else:
            bare.append((lineno, text))
    if current is not None:
        raise SourceError(path, current[1], "build.err.unclosed_block", language=current[0])
    stray = [(n, s) for n, s in bare if s.strip()]
    if blocks and stray:
        raise SourceError(path, stray[0][0], "build.err.outside_block")
    return {k: trim(v) for k, v in blocks.items()} if blocks else {None: trim(bare)}


def _track_fence(fence: str | None, text: str) -> str | None:
    match = FENCE.match(text)
    if not match:
        return fence
    marks = match.group(1)
    if fence is None:
        return marks
    closes = marks[0] == fence[0] and len(marks) >= len(fence) and not text.strip()[len(marks):].strip()
    return None if closes else fence


def trim(lines: Lines) -> Lines:
    """Drop blank lines at both ends."""
    start, end = 0, len(lines)
    while start < end and not lines[start][1].strip():
        start += 1
    while end > start and not lines[end - 1][1].strip():
        end -= 1
    return lines[start:end]


def fenced_code(lines: Lines) -> Lines | None:
    """The inner lines when `lines` is exactly one ```python fence, else None (a markdown body)."""
    if len(lines) < 2:
        return None
    opener = FENCE.match(lines[0][1])
    if not opener or opener.group(2).strip("{}").lower() not in CODE_INFOS:
        return None
    fence = None
    for index, (_, text) in enumerate(lines):
        fence = _track_fence(fence, text)
        if fence is None:
            return lines[1:index] if index == len(lines) - 1 else None
    return None


def without_comments(code: str) -> list[str]:
    """The code's tokens minus comments and layout, to compare the pt and en versions of a cell."""
    try:
        skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
        return [tok.string for tok in tokenize.generate_tokens(io.StringIO(code).readline) if tok.type not in skip]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return [line.split("#")[0].rstrip() for line in code.splitlines() if line.split("#")[0].strip()]
