"""Each Mermaid diagram of a page, also as text: a collapsed list of its steps or arrows, readable on a phone.

A sequence diagram lists its messages and notes in order (``Worker → Broker: ack``), with the branch of each
``alt``/``else``/``loop``; a flowchart lists its arrows (``Executa a tarefa → SUCCESS (terminou)``) and the
group each node sits in. On a wide screen the diagram is drawn and the list collapsed under it; on a phone
(celerylab.css, up to 30em) the list is shown open with a note in place of the drawing, which would scroll sideways.
"""
from __future__ import annotations

import html
import re

from celerylab.i18n import t

FENCE = re.compile(r"^```mermaid\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
PARTICIPANT = re.compile(r"^\s*(?:participant|actor)\s+(\w+)(?:\s+as\s+(.+))?$")
MESSAGE = re.compile(r"^\s*(\w+)\s*(?:-{1,2}>>|-{1,2}x|-{1,2}\)|-{1,2}>)\s*[+-]?(\w+)\s*:\s*(.*)$")
NOTE = re.compile(r"^\s*Note\s+(?:over|left of|right of)\s+([\w, ]+?)\s*:\s*(.*)$", re.IGNORECASE)
BRANCH = re.compile(r"^\s*(alt|else|loop|opt|par|and|critical|break)\b\s*(.*)$")
# A node's label: id["text"], id(["text"]), id{"text"}, id[["text"]], id(("text")), id>"text"]; quotes optional.
OPEN, CLOSE = r"(?:\(\[|\[\[|\[\(|\(\(|\{\{|\[|\(|\{|>)", r"(?:\]\)|\]\]|\)\]|\)\)|\}\}|\]|\)|\})"
NODE = re.compile(rf"\b(\w+)\s*{OPEN}\s*(?:\"([^\"]*)\"|([^\]\)\}}\"]*?))\s*{CLOSE}")
EDGE = re.compile(r"\s*(?:<?-{2,}[->xo]?|<?={2,}>?|-?\.-+>?|--\s+[^-|]+?\s+-->)\s*(?:\|\"?(.*?)\"?\|)?\s*")
SUBGRAPH = re.compile(r"^\s*subgraph\s+(\w+)\s*(?:\[\"?(.*?)\"?\])?\s*$")


def plain(label: str) -> str:
    """A Mermaid label as text: line breaks as spaces, Mermaid's entity codes decoded."""
    text = re.sub(r"<br\s*/?>", " ", label)
    text = re.sub(r"#(\w+);", lambda m: html.unescape(f"&{m.group(1)};"), text)
    return " ".join(text.split())


def sequence_steps(source: str) -> list[str]:
    names: dict[str, str] = {}
    steps: list[str] = []
    for line in source.splitlines():
        if match := PARTICIPANT.match(line):
            names[match.group(1)] = plain(match.group(2) or match.group(1))
        elif match := MESSAGE.match(line):
            sender, receiver = (names.get(name, name) for name in match.group(1, 2))
            steps.append(f"{sender} → {receiver}: {plain(match.group(3))}")
        elif match := NOTE.match(line):
            who = ", ".join(names.get(name.strip(), name.strip()) for name in match.group(1).split(","))
            steps.append(f"({who}) {plain(match.group(2))}")
        elif match := BRANCH.match(line):
            steps.append(f"[{match.group(1)}] {plain(match.group(2))}".rstrip())
    return steps


def flowchart_steps(source: str) -> list[str]:
    labels: dict[str, str] = {}
    groups: dict[str, str] = {}
    steps: list[str] = []
    for line in source.splitlines():
        if match := SUBGRAPH.match(line):
            groups[match.group(1)] = plain(match.group(2) or match.group(1))
            continue
        for node in NODE.finditer(line):
            labels.setdefault(node.group(1), plain(node.group(2) if node.group(2) is not None else node.group(3)))
        bare = NODE.sub(lambda node: node.group(1), line).strip()
        if not bare or bare.split()[0] in ("flowchart", "graph", "direction", "end", "classDef", "class", "style"):
            continue
        parts = EDGE.split(bare)  # node, label, node, label, node...
        if len(parts) < 3:
            continue
        nodes, edge_labels = parts[0::2], parts[1::2]
        for index, label in enumerate(edge_labels):
            source_id, target_id = nodes[index].strip(), nodes[index + 1].strip()
            arrow = f"{labels.get(source_id, groups.get(source_id, source_id))} → " \
                    f"{labels.get(target_id, groups.get(target_id, target_id))}"
            steps.append(arrow + (f" — {plain(label)}" if label else ""))
    return steps


def diagram_steps(source: str) -> list[str]:
    kind = source.lstrip().split(None, 1)[0] if source.strip() else ""
    return sequence_steps(source) if kind == "sequenceDiagram" else flowchart_steps(source)


def text_version(source: str, lang: str) -> str:
    """The collapsed HTML list that follows a diagram (empty when nothing could be read from it)."""
    steps = diagram_steps(source)
    if not steps:
        return ""
    items = "".join(f"<li>{html.escape(step)}</li>" for step in steps)
    return (f'\n<details class="cl-diagram-text"><summary>{html.escape(t("site.diagram_text", lang))}</summary>'
            f'<p class="cl-diagram-note">{html.escape(t("site.diagram_text_phone", lang))}</p>'
            f"<ol>{items}</ol></details>\n")


def with_text_versions(markdown: str, lang: str) -> str:
    """`markdown` with each ```mermaid block followed by its text version."""
    return FENCE.sub(lambda block: block.group(0) + "\n" + text_version(block.group(1), lang), markdown)
