"""Convert one executed notebook into a Markdown page: prose as is, code fenced, outputs rendered, admonitions from metadata."""
from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field

from celerylab.i18n import t
from celerylab.sitegen.cell_keys import alt_text, docs_link, mark_language, section_of, text_lang
from celerylab.sitegen.nb_outputs import Rendered, fence, render_outputs, text_of

HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)
NOTEBOOK_LINK = re.compile(r"\]\((?!\w+://)([^)#\s]+)\.ipynb(#[^)\s]*)?\)")
ATTACHMENT = re.compile(r"\(attachment:([^)\s]+)\)")
SAFE = re.compile(r"[^a-z0-9-]+")
# The cell that sets a notebook's language (`set_lang("pt")`): plumbing for the kernel, not for a reader.
LANGUAGE_CELLS = {"lang-pt", "lang-en"}
ADMONITION_TYPES = {"note", "abstract", "info", "tip", "success", "question", "warning",
                    "failure", "danger", "bug", "example", "quote"}


@dataclass
class Page:
    """A notebook as a Markdown page: its text, its title and the files it links to."""

    markdown: str
    title: str
    files: dict[str, bytes] = field(default_factory=dict)
    cells: list[dict] = field(default_factory=list)


def cell_meta(cell: dict) -> dict:
    """The celerylab metadata of a cell (`metadata.celerylab`), merged over plain `metadata` keys."""
    metadata = cell.get("metadata") or {}
    return {**metadata, **(metadata.get("celerylab") or {})}


def _tags(cell: dict) -> set[str]:
    return set(cell_meta(cell).get("tags") or [])


def admonition(meta: dict, body: str) -> str:
    """Wrap `body` in the admonition `meta["admonition"]` asks for ("tip" or {"type", "title"})."""
    spec = meta.get("admonition")
    if not spec:
        return body
    if isinstance(spec, str):
        spec = {"type": spec}
    kind = str(spec.get("type", "note")).lower()
    kind = kind if kind in ADMONITION_TYPES else "note"
    title = spec.get("title")
    marker = "???" if spec.get("collapsed") else "!!!"
    head = f'{marker} {kind} "{title}"' if title else f"{marker} {kind}"
    return head + "\n\n" + "\n".join(("    " + line) if line.strip() else "" for line in body.split("\n"))


def _markdown_cell(cell: dict, key: str, link_dir: str, files: dict[str, bytes]) -> str:
    source = text_of(cell.get("source", ""))
    source = NOTEBOOK_LINK.sub(lambda m: f"]({m.group(1)}.md{m.group(2) or ''})", source)
    attachments = cell.get("attachments") or {}

    def attach(match: re.Match) -> str:
        name = match.group(1)
        bundle = attachments.get(name) or {}
        for mime, data in bundle.items():
            if mime.startswith("image/") and mime != "image/svg+xml":
                target = f"{key}-{SAFE.sub('-', name.lower())}"
                files[target] = base64.b64decode(text_of(data))
                return f"({link_dir}/{target})"
        return match.group(0)

    return ATTACHMENT.sub(attach, source).strip()


def _code_cell(cell: dict, key: str, link_dir: str, lang: str, language: str, files: dict[str, bytes],
               alt: str = "") -> str:
    tags = _tags(cell)
    parts = []
    source = text_of(cell.get("source", "")).strip("\n")
    if source and "remove-input" not in tags:
        parts.append(fence(source, language))
    if "remove-output" not in tags:
        rendered: Rendered = render_outputs(cell.get("outputs") or [], key, link_dir, lang, alt)
        parts.extend(rendered.blocks)
        files.update(rendered.files)
    return "\n\n".join(parts)


def notebook_to_page(nb: dict, stem: str, lang: str) -> Page:
    """The page for notebook `nb`, saved as `<stem>.md`; its files go in the folder `<stem>_files`."""
    link_dir = f"{stem}_files"
    language = ((nb.get("metadata") or {}).get("language_info") or {}).get("name") or "python"
    files: dict[str, bytes] = {}
    blocks: list[str] = []
    solution: list[str] = []  # an exercise's answer and check cells, shown collapsed after its statement
    section = None
    for index, cell in enumerate(nb.get("cells") or [], start=1):
        meta = cell_meta(cell)
        if {"remove-cell", "remove_cell"} & _tags(cell) or meta.get("id") in LANGUAGE_CELLS:
            continue
        key = SAFE.sub("-", str(meta.get("id") or cell.get("id") or f"cell-{index}").lower()).strip("-")
        kind = cell.get("cell_type")
        if kind == "markdown":
            body = _markdown_cell(cell, key, link_dir, files)
            section = section_of(body) or section
            other = text_lang(meta, lang)
            body = mark_language(body, other) if other and body else body
        elif kind == "code":
            body = _code_cell(cell, key, link_dir, lang, language, files, alt_text(meta, lang, section))
        elif kind == "raw" and (meta.get("format") or meta.get("raw_mimetype") or "") in ("text/markdown", "text/html"):
            body = text_of(cell.get("source", "")).strip()
        else:
            continue
        if not body:
            continue
        body = "\n\n".join(part for part in (admonition(meta, body), docs_link(meta, lang)) if part)
        if meta.get("exercise") or meta.get("check"):
            solution.append(body)
            continue
        blocks += [_collapsed(solution, lang)] if solution else []
        solution = []
        blocks.append(body)
    blocks += [_collapsed(solution, lang)] if solution else []
    markdown = "\n\n".join(blocks) + "\n"
    found = HEADING.search(_without_fences(markdown))
    return Page(markdown=markdown, title=found.group(1).strip() if found else stem,
                files=files, cells=nb.get("cells") or [])


def _collapsed(bodies: list[str], lang: str) -> str:
    """Answer and check cells inside one collapsed "show the solution" admonition."""
    return admonition({"admonition": {"type": "success", "title": t("site.solution.show", lang), "collapsed": True}},
                      "\n\n".join(bodies))


def _without_fences(markdown: str) -> str:
    """Markdown with fenced blocks blanked, so a `# comment` in code is never taken for a heading."""
    return re.sub(r"(`{3,})[^\n]*\n.*?\n\1", "", markdown, flags=re.DOTALL)
