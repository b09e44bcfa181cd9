"""Where the suite's time goes: worker-seconds per part of the suite, from a pytest junit XML (run by hand).

    python3 run.py test --junitxml=/tmp/suite.xml      # or any targeted run: -k, a path, -n 0
    .venv/bin/python benchmarks/suite_durations.py /tmp/suite.xml [--slowest 15]

The parts are those the team tracks (older releases, claims on the course's release, the self-check's wrong answers
and stubs, the lesson and solutions notebooks, the grader, the browser, compose, the rest); the slowest units (a file,
or a test of a spread file) follow, since a unit is a floor no scheduling can lower.
"""
from __future__ import annotations

import argparse
import re
import xml.etree.ElementTree as ElementTree
from collections import defaultdict

PARTS = [  # (part, pattern on "classname::name"), first match wins
    ("older releases", r"tests\.matrix\.test_older_releases"),
    ("claims on the course's release", r"lessons\.l\d\d_\w+\.test_claims_"),
    ("self-check wrong answers", r"test_self_check::test_check_fails_on_each_wrong_answer"),
    ("self-check stubs", r"test_self_check::test_check_fails_on_the_unsolved_exercise"),
    ("lesson notebooks", r"^notebooks\."),
    ("solutions notebooks", r"^solutions\."),
    ("grader", r"^tests\.grader\."),
    ("browser", r"^tests\.(site|browser)\.|playwright|lighthouse"),
    ("compose", r"test_compose"),
]


def part_of(test_id: str) -> str:
    return next((name for name, pattern in PARTS if re.search(pattern, test_id)), "rest")


def unit_of(test_id: str) -> str:
    """The file of a test (the scheduler's usual unit): its classname up to the module."""
    classname = test_id.split("::", 1)[0]
    return re.sub(r"\.(Test\w+)$", "", classname)


def read(path: str) -> list[tuple[str, float]]:
    """(classname::name, seconds) of every test case in the junit file."""
    root = ElementTree.parse(path).getroot()
    return [(f"{case.get('classname', '')}::{case.get('name', '')}", float(case.get("time") or 0))
            for case in root.iter("testcase")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit")
    parser.add_argument("--slowest", type=int, default=15)
    args = parser.parse_args()
    cases = read(args.junit)
    parts: dict[str, float] = defaultdict(float)
    units: dict[str, float] = defaultdict(float)
    for test_id, seconds in cases:
        parts[part_of(test_id)] += seconds
        units[unit_of(test_id)] += seconds
    print(f"{len(cases)} tests, {sum(parts.values()):.0f} worker-seconds")
    for name, seconds in sorted(parts.items(), key=lambda entry: -entry[1]):
        print(f"  {seconds:8.0f} s  {name}")
    print("slowest units (files):")
    for name, seconds in sorted(units.items(), key=lambda entry: -entry[1])[:args.slowest]:
        print(f"  {seconds:8.0f} s  {name}")


if __name__ == "__main__":
    main()
