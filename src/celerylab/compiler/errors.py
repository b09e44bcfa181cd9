"""Errors in a lesson source, located by file and line so the author can jump to them."""
from __future__ import annotations

from celerylab.compiler.model import BuildError
from celerylab.i18n import t


class SourceError(BuildError):
    """A malformed lesson.md: `path:line: problem`, with the problem in the current language."""

    def __init__(self, path: object, line: int, key: str, **values: object):
        self.path, self.line, self.problem_key = str(path), line, key
        super().__init__(key, **values)

    def __str__(self) -> str:
        return t("build.err.at", path=self.path, line=self.line, problem=t(self.problem_key, **self.values))
