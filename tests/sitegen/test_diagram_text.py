"""Every diagram of the site also as text: a sequence diagram's messages in order, a flowchart's arrows."""
from __future__ import annotations

from pathlib import Path

import pytest

from celerylab.sitegen.diagram_text import FENCE, diagram_steps, with_text_versions

SITE = Path(__file__).resolve().parents[2] / "site"

SEQUENCE = """sequenceDiagram
    participant B as Broker
    participant W as Worker
    B->>W: delivers the message
    alt acks_late
        W-->>B: ack after running
    end
    Note over B,W: redelivered once
"""
FLOWCHART = """flowchart TD
    run["Runs the task"] -->|"returned"| ok(["SUCCESS"])
    run --> left{"retries #lt; max_retries?<br/>(TimeoutError)"}
"""


def test_a_sequence_diagram_reads_as_its_messages_in_order():
    assert diagram_steps(SEQUENCE) == ["Broker → Worker: delivers the message", "[alt] acks_late",
                                       "Worker → Broker: ack after running", "(Broker, Worker) redelivered once"]


def test_a_flowchart_reads_as_its_arrows_with_labels_decoded():
    assert diagram_steps(FLOWCHART) == ["Runs the task → SUCCESS — returned",
                                        "Runs the task → retries < max_retries? (TimeoutError)"]


def test_each_diagram_block_is_followed_by_its_text_in_the_pages_language():
    page = f"Intro\n\n```mermaid\n{SEQUENCE}```\n\nAfter\n"
    english, portuguese = with_text_versions(page, "en"), with_text_versions(page, "pt")
    assert english.index("```\n") < english.index("Read the diagram as text") < english.index("After")
    assert "Ler o diagrama como texto" in portuguese and "<li>Broker → Worker: delivers the message</li>" in portuguese


def test_the_text_version_carries_the_note_a_phone_shows_in_place_of_the_drawing():
    """celerylab.css shows the note and the steps open on a phone (up to 30em), the summary on a wider screen."""
    page = f"```mermaid\n{SEQUENCE}```\n"
    for lang, note in (("pt", "vire o celular de lado"), ("en", "turn the phone sideways")):
        html = with_text_versions(page, lang)
        summary, paragraph, steps = html.index("<summary>"), html.index('<p class="cl-diagram-note">'), html.index("<ol>")
        assert summary < paragraph < steps and note in html[paragraph:steps], lang


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_every_diagram_of_the_diagrams_page_has_a_text_version_of_each_of_its_lines(lang):
    """No arrow or message is lost: each diagram gives as many steps as it has arrow or message lines."""
    source = (SITE / lang / "diagrams.md").read_text(encoding="utf-8")
    blocks = [block.group(1) for block in FENCE.finditer(source)]
    assert len(blocks) == 6
    for block in blocks:
        arrows = sum(1 for line in block.splitlines() if ("->" in line or "--x" in line or "-->" in line)
                     and not line.strip().startswith("%%"))
        steps = diagram_steps(block)
        assert len([step for step in steps if "→" in step]) >= arrows, (block[:80], steps)
        assert not any('"' in step or "<br" in step or "#lt;" in step for step in steps), steps
