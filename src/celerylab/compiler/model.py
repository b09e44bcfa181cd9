"""The parsed lesson source: cells with their per-language texts, and the build's own error type."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from celerylab.course import FOLDERS, Lesson
from celerylab.i18n import LANGS as LANGS  # defined once, in celerylab.i18n
from celerylab.i18n import TranslatedError

PARTS = ("lesson", "all", "exercises", "solutions")  # "solutions": only once solved (the *-after notes)
VARIANTS = ("lesson", "exercises", "solutions")
EXECUTED_VARIANTS = ("lesson", "solutions")


class BuildError(TranslatedError):
    """A problem the author must fix; the message is a catalog key rendered in the current language."""


@dataclass
class SourceCell:
    """One `+++` cell of lesson.md: kind, texts per language, and its build metadata."""

    id: str
    line: int
    kind: str  # "markdown" | "code"
    texts: dict[str, str]  # lang -> cell source
    part: str = "lesson"
    lang: str | None = None
    exercise: str | None = None
    check: str | None = None
    tags: list[str] = field(default_factory=list)
    site: dict = field(default_factory=dict)  # alt / docs / text_lang: read by the site only
    audit: tuple[str, ...] = ()  # the `celerylab audit` rules this cell's section teaches (findings link here)
    audit_again: tuple[str, ...] = ()  # rules another lesson teaches, shown here again in another setting
    needs: tuple[str, ...] = ()  # what the cell needs from the machine (celerylab.machine_needs): nbval skips it without
    measures: bool = True  # False: a cell that needs the machine but measures nothing (no experiment expected)
    points_to: str | None = None  # a generated cell sending the lesson's reader to this exercise's notebook

    def in_variant(self, variant: str) -> bool:
        """Whether this cell belongs to the lesson, exercises or solutions notebook.

        The lesson notebook (what the lab opens) holds no answer cell and no check: no solution, no ✅.
        """
        if variant == "lesson":
            return self.part in ("lesson", "all") and not (self.exercise or self.check)
        if variant == "exercises":
            return self.part in ("all", "exercises")
        return self.part in ("all", "exercises", "solutions")


@dataclass
class Draft:
    """A cell on its way to a notebook: one language's source, plus the SourceCell it came from."""

    id: str
    kind: str
    source: str
    origin: SourceCell


@dataclass(frozen=True)
class Target:
    """One generated notebook: a lesson in one language and one variant."""

    lesson: Lesson
    lang: str
    variant: str  # "lesson" | "exercises" | "solutions"

    @property
    def folder(self) -> str:
        return FOLDERS[self.variant]

    @property
    def executed(self) -> bool:
        return self.variant in EXECUTED_VARIANTS

    def path(self, root: Path) -> Path:
        """Where this notebook lives under the course root, e.g. notebooks/pt/01_retries.ipynb."""
        return root / self.folder / self.lang / self.lesson.file_name(self.lang, self.variant)

    def label(self) -> str:
        return f"{self.folder}/{self.lang}/{self.lesson.file_name(self.lang, self.variant)}"
