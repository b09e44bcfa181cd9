"""Whether each lesson's recorded observations on a release line were measured on the inputs it has now (its digest)."""
from __future__ import annotations

from pathlib import Path

from celerylab.course import LESSONS_DIR
from celerylab.i18n import t
from celerylab.matrix import inputs, results
from celerylab.matrix.releases import RELEASES, Release


def older() -> list[Release]:
    """The release lines this interpreter does not run: their claims are checked by digest, the installed one's live."""
    return [release for release in RELEASES if not release.is_installed()]


def lessons_with_claims(lessons_dir: Path = LESSONS_DIR) -> list[Path]:
    return sorted(path.parent for path in lessons_dir.glob(f"l[0-9]*/{results.OBSERVED_FILE}"))


def stale(lessons_dir: Path = LESSONS_DIR, releases: list[Release] | None = None) -> list[tuple[str, str]]:
    """(lesson folder name, release line) of every lesson whose recorded digest on that line (an older one by default)
    is absent or differs from its inputs' digest now, lessons in course order."""
    found = []
    for folder in lessons_with_claims(lessons_dir):
        recorded = results.load(folder / results.OBSERVED_FILE)
        for release in older() if releases is None else releases:
            if results.digest_of(results.joined([recorded]), release.line, folder.name) != inputs.digest(folder, release):
                found.append((folder.name, release.line))
    return found


def refresh_command(line: str, lessons: list[str]) -> str:
    return " ".join(["celerylab matrix", f"--release {line}", *(f"--lesson {lesson}" for lesson in lessons)])


def report(found: list[tuple[str, str]], lang: str | None = None) -> str:
    """What is stale and, per release line, the one command that measures those lessons again and records them."""
    lines = [t("matrix.stale.head", lang, count=len(found))]
    for line in dict.fromkeys(line for _, line in found):
        lessons = [lesson for lesson, each in found if each == line]
        lines.append(t("matrix.stale.line", lang, line=line, lessons=", ".join(lessons),
                       command=refresh_command(line, lessons)))
    return "\n".join(lines)
