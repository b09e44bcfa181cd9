"""The course's message catalogs as an author sees them: every entry with its file and line, checked."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from celerylab.authoring.problems import Problem, yaml_mapping
from celerylab.i18n import LANGS, placeholders

PACKAGE = Path(__file__).resolve().parents[1]
TOOL_CATALOGS = PACKAGE / "i18n"
LESSON_KEY = re.compile(r"^l\d+\.")


@dataclass
class Catalog:
    """Every message key of the course, where it is defined, and the problems found loading them."""

    where: dict[str, tuple[Path, int]]
    problems: list[Problem]

    def __contains__(self, key: str) -> bool:
        return key in self.where

    def has_prefix(self, prefix: str) -> bool:
        return any(key.startswith(prefix) for key in self.where)


def package_catalogs(package: Path | None = None) -> list[Path]:
    """The catalogs kept beside the code that prints them (audit/, sitegen/, matrix/, deploy/, ...: any
    messages.yml of the package outside the lessons and the scaffold's templates)."""
    package = package or PACKAGE
    return sorted(path for path in package.rglob("messages.yml")
                  if not {"lessons", "template", "__pycache__"} & set(path.relative_to(package).parts))


def catalog_files(lessons_dir: Path, lessons: list[str]) -> list[Path]:
    """The tool's catalogs, the package's other catalogs, then the messages.yml of each lesson folder given."""
    files = sorted(TOOL_CATALOGS.glob("*.yml")) + package_catalogs()
    return files + [lessons_dir / name / "messages.yml" for name in lessons
                    if (lessons_dir / name / "messages.yml").is_file()]


def entry_problems(path: Path, line: int, key: str, texts: object) -> list[Problem]:
    """An entry needs non-empty pt and en texts with the same {placeholders}."""
    if not isinstance(texts, dict):
        return [Problem(path, line, "dev.p.catalog_langs", {"name": key, "langs": ", ".join(LANGS)})]
    missing = [lang for lang in LANGS if not (isinstance(texts.get(lang), str) and texts[lang].strip())]
    if missing:
        return [Problem(path, line, "dev.p.catalog_langs", {"name": key, "langs": ", ".join(missing)})]
    try:
        found = {lang: placeholders(texts[lang]) for lang in LANGS}
    except ValueError as error:
        return [Problem(path, line, "dev.p.bad_format", {"name": key, "error": str(error)})]
    if found["pt"] != found["en"]:
        return [Problem(path, line, "dev.p.placeholders", {"name": key, "pt": sorted(found["pt"]),
                                                          "en": sorted(found["en"])})]
    return []


def load(lessons_dir: Path, lessons: list[str]) -> Catalog:
    """Load and check every catalog: languages, placeholders, keys defined twice, lesson key prefixes."""
    where: dict[str, tuple[Path, int]] = {}
    problems: list[Problem] = []
    lesson_files = {lessons_dir / name / "messages.yml" for name in lessons}
    for path in catalog_files(lessons_dir, lessons):
        data, lines, found = yaml_mapping(path)
        problems += found
        lesson = path.parent.name if path in lesson_files else None
        for key, texts in data.items():
            line = lines.get(key, 1)
            if key in where:
                first = where[key]
                problems.append(Problem(path, line, "dev.p.key_twice", {"name": key, "first": f"{first[0]}:{first[1]}"}))
                continue
            where[key] = (path, line)
            if lesson and not key.startswith(lesson.split("_", 1)[0] + "."):
                problems.append(Problem(path, line, "dev.p.key_prefix", {"name": key,
                                                                         "prefix": lesson.split("_", 1)[0] + "."}))
            problems += entry_problems(path, line, key, texts)
    return Catalog(where, problems)
