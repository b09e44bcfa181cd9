"""One problem the author must fix, located by file and (when known) line, rendered in the current language."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from celerylab.i18n import t


@dataclass(frozen=True)
class Problem:
    """`path:line: problem`; `key` and `values` make the problem's text from the catalogs."""

    path: Path
    line: int | None
    key: str
    values: dict = field(default_factory=dict, hash=False)

    def where(self) -> str:
        path = Path(self.path)
        try:
            shown = os.path.relpath(path) if path.resolve().is_relative_to(Path.cwd()) else str(path)
        except (OSError, ValueError):
            shown = str(path)
        return f"{shown}:{self.line}" if self.line else shown

    def render(self) -> str:
        values = {k: (t(v) if k == "reason" else v) for k, v in self.values.items()}
        return f"{self.where()}: {t(self.key, **values)}"


def yaml_mapping(path: Path) -> tuple[dict, dict[str, int], list[Problem]]:
    """A YAML mapping file: (data, line of each top-level key, problems such as repeated keys)."""
    text = path.read_text(encoding="utf-8")
    try:
        node = yaml.compose(text)
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        return {}, {}, [Problem(path, mark.line + 1 if mark else None, "dev.p.bad_yaml", error=str(error).splitlines()[0])]
    if node is None:
        return {}, {}, []
    if not isinstance(data, dict):
        return {}, {}, [Problem(path, 1, "dev.p.not_mapping")]
    lines: dict[str, int] = {}
    problems = []
    for key_node, _ in node.value:
        if key_node.value in lines:
            problems.append(Problem(path, key_node.start_mark.line + 1, "dev.p.duplicate_key",
                                    {"name": key_node.value, "first": lines[key_node.value]}))
        lines.setdefault(str(key_node.value), key_node.start_mark.line + 1)
    return {str(k): v for k, v in data.items()}, lines, problems
