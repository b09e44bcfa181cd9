"""A Markdown extension: each table cell carries its column's header (`data-label`), so a phone can stack a wide table."""
from __future__ import annotations

from markdown import Extension
from markdown.treeprocessors import Treeprocessor


class TableLabels(Treeprocessor):
    """Copies each header's text onto the body cells of its column (celerylab.css uses it on narrow screens)."""

    def run(self, root):
        for table in root.iter("table"):
            head = table.find("thead/tr")
            if head is None:
                continue
            labels = [" ".join("".join(th.itertext()).split()) for th in head]
            for row in table.iterfind("tbody/tr"):
                for label, cell in zip(labels, row):
                    cell.set("data-label", label)


class TableLabelsExtension(Extension):
    """Registers TableLabels after the inline patterns, so a header's `code` reads as its text."""

    def extendMarkdown(self, md) -> None:
        md.treeprocessors.register(TableLabels(md), "celerylab_table_labels", 5)


def makeExtension(**kwargs) -> TableLabelsExtension:  # noqa: N802 (Python-Markdown's entry point name)
    return TableLabelsExtension(**kwargs)
