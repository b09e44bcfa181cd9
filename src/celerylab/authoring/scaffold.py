"""`celerylab dev new-lesson NN slug`: a new lesson folder from the template, appended to course.yml."""
from __future__ import annotations

import re
from pathlib import Path
from string import Template

import yaml

from celerylab.i18n import TranslatedError

TEMPLATE = Path(__file__).resolve().parent / "template"
NUMBER = re.compile(r"^(?!00)\d{2}$")
SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


class ScaffoldError(TranslatedError):
    """Why nothing was created, in the current language."""


def _listed(course_file: Path) -> list[str]:
    if not course_file.is_file():
        return []
    data = yaml.safe_load(course_file.read_text(encoding="utf-8")) or []
    return [str(name) for name in (data.get("lessons", []) if isinstance(data, dict) else data)]


def refuse_if_taken(number: str, slug: str, course_file: Path, lessons_dir: Path) -> None:
    if not NUMBER.match(number):
        raise ScaffoldError("dev.new.err.number", number=number)
    if not SLUG.match(slug):
        raise ScaffoldError("dev.new.err.slug", slug=slug)
    folder = lessons_dir / f"l{number}_{slug}"
    if folder.exists():
        raise ScaffoldError("dev.new.err.exists", folder=folder)
    existing = _listed(course_file) + sorted(p.name for p in lessons_dir.glob(f"l{number}_*") if p.is_dir())
    for name in existing:
        if name.startswith(f"l{number}_"):
            raise ScaffoldError("dev.new.err.taken", number=number, lesson=name)


def append_to_course(course_file: Path, lesson: str) -> None:
    """Add the lesson at the end of course.yml, keeping its comments (a list file) or rewriting a mapping."""
    text = course_file.read_text(encoding="utf-8") if course_file.is_file() else ""
    data = yaml.safe_load(text) if text else None
    if isinstance(data, dict):
        data.setdefault("lessons", []).append(lesson)
        course_file.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return
    if text and not text.endswith("\n"):
        text += "\n"
    course_file.write_text(f"{text}- {lesson}\n", encoding="utf-8")


def new_lesson(number: str, slug: str, course_file: Path, lessons_dir: Path,
               title_pt: str | None = None, title_en: str | None = None) -> Path:
    """Render every template file (names too) into lessons_dir/lNN_slug/ and list the lesson in course.yml."""
    refuse_if_taken(number, slug, course_file, lessons_dir)
    lesson = f"l{number}_{slug}"
    default = slug.replace("_", " ").capitalize()
    values = {"number": number, "slug": slug, "lesson": lesson, "prefix": f"l{number}",
              "title_pt": title_pt or default, "title_en": title_en or default}
    folder = lessons_dir / lesson
    folder.mkdir(parents=True)
    for template in sorted(TEMPLATE.rglob("*.tmpl")):  # wrong_answers/ too: every exercise keeps two
        text = Template(template.read_text(encoding="utf-8")).substitute(values)
        name = Template(template.name.removesuffix(".tmpl")).substitute(values)  # test_claims_$slug.py
        target = folder / template.relative_to(TEMPLATE).with_name(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    append_to_course(course_file, lesson)
    return folder
