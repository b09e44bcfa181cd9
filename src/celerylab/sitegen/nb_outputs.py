"""Render a notebook code cell's outputs as Markdown blocks, extracting images to separate files."""
from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field

from celerylab.i18n import t
from celerylab.sitegen.html_table import html_table_to_markdown
from celerylab.sitegen.text_table import text_table_to_markdown

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
SCRIPT = re.compile(r"<script\b.*?</script>", re.IGNORECASE | re.DOTALL)
# Outputs are fenced as `output` (Pygments' plain-output lexer); the site styles `.language-output` apart from code.
IMAGES = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/svg+xml": "svg"}


@dataclass
class Rendered:
    """Markdown blocks for the outputs, plus the image files they link to (name -> bytes)."""

    blocks: list[str] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)


def text_of(value: str | list[str]) -> str:
    """Notebook text fields are a string or a list of lines."""
    return value if isinstance(value, str) else "".join(value)


def fence(text: str, lang: str = "output") -> str:
    """A fenced block long enough never to be closed by the text inside it."""
    runs = [len(run) for run in re.findall(r"`{3,}", text)]
    ticks = "`" * max([3] + [n + 1 for n in runs])
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}"


def clean(text: str) -> str:
    """Drop terminal colour codes and carriage-return progress redraws."""
    text = ANSI.sub("", text)
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))


def _image(data: dict, mime: str, name: str, link_dir: str, alt: str, out: Rendered) -> None:
    raw = data[mime]
    payload = text_of(raw).encode() if mime == "image/svg+xml" else base64.b64decode(text_of(raw))
    filename = f"{name}.{IMAGES[mime]}"
    out.files[filename] = payload
    alt = " ".join(alt.replace("[", "(").replace("]", ")").split())
    out.blocks.append(f"![{alt}]({link_dir}/{filename})")


def _rich(data: dict, name: str, link_dir: str, lang: str, out: Rendered, alt: str = "") -> None:
    """One display_data / execute_result: the most useful representation Markdown can hold."""
    for mime in IMAGES:
        if mime in data:
            return _image(data, mime, name, link_dir, alt or t("site.output.image_alt", lang), out)
    if "text/markdown" in data:
        return out.blocks.append(text_of(data["text/markdown"]).strip())
    if "text/html" in data:
        html = text_of(data["text/html"])
        table = html_table_to_markdown(html)
        if table:
            return out.blocks.append(table)
        if "text/plain" not in data:
            body = SCRIPT.sub("", html).strip()
            return out.blocks.append(f'<div class="cl-html-output" markdown="0">\n{body}\n</div>')
    if "application/json" in data:
        return out.blocks.append(fence(json.dumps(data["application/json"], indent=2, ensure_ascii=False), "json"))
    if "text/plain" in data:
        out.blocks.append(fence(clean(text_of(data["text/plain"]))))


def render_outputs(outputs: list[dict], name: str, link_dir: str, lang: str, alt: str = "") -> Rendered:
    """Markdown for `outputs`; images are saved as `<name>-<n>.<ext>` and linked from `link_dir`."""
    out = Rendered()
    streams: dict[str, list[str]] = {}
    order: list[str] = []

    def flush() -> None:
        for stream in order:
            text = clean("".join(streams[stream]))
            table = text_table_to_markdown(text) if stream == "stdout" else None
            out.blocks.append(table or fence(text))
        streams.clear()
        order.clear()

    for index, output in enumerate(outputs, start=1):
        kind = output.get("output_type")
        if kind == "stream":
            stream = output.get("name", "stdout")
            if stream not in streams:
                order.append(stream)
                streams[stream] = []
            streams[stream].append(text_of(output.get("text", "")))
            continue
        flush()
        if kind in ("display_data", "execute_result"):
            _rich(output.get("data", {}), f"{name}-{index}", link_dir, lang, out, alt)
        elif kind == "error":
            trace = clean("\n".join(output.get("traceback") or []))
            summary = f"{output.get('ename', '')}: {output.get('evalue', '')}"
            out.blocks.append(f'!!! failure "{t("site.output.error", lang)}"\n\n'
                              + _indent(fence(trace or summary)))
    flush()
    return out


def _indent(text: str) -> str:
    return "\n".join(("    " + line) if line else "" for line in text.split("\n"))
