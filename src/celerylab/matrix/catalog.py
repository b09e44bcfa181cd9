"""What each claim says: every lesson's claims.yml, one entry per claim test, its sentence in pt and en and its cell."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from celerylab.course import LESSONS_DIR

CLAIMS_FILE = "claims.yml"


@dataclass(frozen=True)
class Claim:
    """A claim test described: its lesson folder, test name, the id of the lesson.md cell whose section makes it
    ("" for the lesson as a whole), its sentence.

    `varies`: the release lines where repeated runs do not observe the same thing (load decides the race the
    test measures there); the matrix shows the last observation and `--check` does not compare it."""

    lesson: str
    test: str
    cell: str
    pt: str
    en: str
    varies: tuple[str, ...] = ()

    def text(self, lang: str) -> str:
        return self.en if lang == "en" else self.pt


def split_claim_id(claim_id: str) -> tuple[str, str, str]:
    """`l02_workers::test_x[solo]` -> ("l02_workers", "test_x", "solo")."""
    lesson, _, name = claim_id.partition("::")
    base, _, param = name.partition("[")
    return lesson, base, param.rstrip("]")


@lru_cache(maxsize=None)
def lesson_claims(lesson: str, lessons_dir: Path = LESSONS_DIR) -> dict[str, Claim]:
    """{test name: Claim} from the lesson's claims.yml ({} when it has none)."""
    path = lessons_dir / lesson / CLAIMS_FILE
    if not path.exists():
        return {}
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {name: Claim(lesson, name, str(entry.get("cell", "")), str(entry["pt"]), str(entry["en"]),
                        tuple(str(line) for line in entry.get("varies", ())))
            for name, entry in raw.items()}


def varies(claim_id: str, line: str) -> bool:
    """True when claims.yml says `claim_id` does not observe the same thing run after run on `line`."""
    described = describe(claim_id)
    return described is not None and line in described.varies


def describe(claim_id: str) -> Claim | None:
    lesson, base, _ = split_claim_id(claim_id)
    return lesson_claims(lesson).get(base)
