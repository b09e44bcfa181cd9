"""Plausible wrong answers kept beside each exercise (``lNN_slug/wrong_answers/<exercise>__<slug>.py``): the course's mutation test."""
from __future__ import annotations

import ast
import shutil
from dataclasses import dataclass
from pathlib import Path

FOLDER = "wrong_answers"
SEPARATOR = "__"
VIOLATES = "Violates:"
MINIMUM = 2  # wrong answers every exercise keeps


@dataclass(frozen=True)
class WrongAnswer:
    """One wrong answer: the exercise's name (without the lesson prefix), its slug, its file."""

    exercise: str
    slug: str
    path: Path

    @property
    def summary(self) -> str:
        """Its docstring's first line: what it gets wrong, then ``Violates: "<the statement's sentence>"``."""
        try:
            docstring = ast.get_docstring(ast.parse(self.path.read_text(encoding="utf-8"))) or ""
        except SyntaxError:
            return ""
        return docstring.strip().split("\n", 1)[0]

    @property
    def described(self) -> bool:
        """Whether the summary says both what is wrong and which sentence of the statement it violates."""
        wrong, _, sentence = self.summary.partition(VIOLATES)
        return bool(wrong.strip()) and bool(sentence.strip())

    def install(self, workdir: Path, module: str) -> Path:
        """Copy it into `workdir` as the exercise's module, as if the learner's answer cell had written it."""
        target = Path(workdir) / f"{module}.py"
        shutil.copyfile(self.path, target)
        return target


def in_lesson(folder: Path) -> list[WrongAnswer]:
    """Every wrong answer of one lesson folder, sorted by exercise and slug."""
    answers = []
    for path in sorted((Path(folder) / FOLDER).glob(f"*{SEPARATOR}*.py")):
        exercise, _, slug = path.stem.partition(SEPARATOR)
        answers.append(WrongAnswer(exercise, slug, path))
    return answers


def of_exercise(folder: Path, exercise: str) -> list[WrongAnswer]:
    """The wrong answers of one exercise (its name without the lesson prefix, e.g. ``pay_once``)."""
    return [answer for answer in in_lesson(folder) if answer.exercise == exercise]
