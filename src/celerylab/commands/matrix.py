"""`celerylab matrix`: every lesson's claim tests on each Celery release line, written to (or checked against) each
lesson's observed.json."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from celerylab.commands._common import add_lang
from celerylab.i18n import t


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(t("matrix.opt.jobs_positive", value=text))
    return value


def register(subparsers) -> None:
    from celerylab.matrix.releases import RELEASES

    lines = [release.line for release in RELEASES]
    parser = subparsers.add_parser("matrix", help=t("matrix.help"), description=t("matrix.description"))
    parser.add_argument("--release", action="append", choices=lines, metavar="LINE",
                        help=t("matrix.opt.release", lines=", ".join(lines)))
    parser.add_argument("--lesson", action="append", metavar="lNN_slug", help=t("matrix.opt.lesson"))
    parser.add_argument("-k", dest="select", metavar="EXPR", help=t("matrix.opt.select"))
    parser.add_argument("--jobs", type=positive, default=4, help=t("matrix.opt.jobs"))
    parser.add_argument("--check", action="store_true", help=t("matrix.opt.check"))
    parser.add_argument("--stale", action="store_true", help=t("matrix.opt.stale"))
    parser.add_argument("--out", type=Path, help=t("matrix.opt.out"))
    add_lang(parser)
    parser.set_defaults(run=run)


def say(key: str, **values) -> None:
    print(t(key, **values), file=sys.stderr, flush=True)


def show_differences(line: str, found: list) -> None:
    from celerylab.matrix.report import describe_result

    say("matrix.check.differs", line=line, count=len(found))
    for claim, committed, observed in found:
        say("matrix.check.claim", claim=claim, committed=describe_result(committed), observed=describe_result(observed))


def show_unmeasured(line: str, column: dict) -> None:
    from celerylab.matrix import results

    for claim, lacks in results.unmeasured(column).items():
        say("matrix.unmeasured", line=line, claim=claim, lacks=", ".join(lacks))


def lessons_to_run(args, chosen: list) -> dict[str, list[str] | None]:
    """{release line: the lessons to run there (None: every lesson)}; with --stale, only the lessons whose recorded
    digest on that line differs from their inputs' (lines with none left out; the older lines unless --release)."""
    if not args.stale:
        return {each.line: args.lesson for each in chosen}
    from celerylab.matrix import freshness

    found = freshness.stale(releases=chosen if args.release else freshness.older())  # the installed line runs live
    plan = {each.line: [lesson for lesson, line in found if line == each.line and lesson in (args.lesson or [lesson])]
            for each in chosen}
    return {line: lessons for line, lessons in plan.items() if lessons}


def digests(line: str, lessons: list[str] | None) -> dict[str, str]:
    from celerylab.matrix import freshness, inputs, run_claims
    from celerylab.matrix.releases import release

    folders = [run_claims.LESSONS / name for name in lessons] if lessons else freshness.lessons_with_claims(run_claims.LESSONS)
    return {folder.name: inputs.digest(folder, release(line)) for folder in folders}


def confirmed(release, python, committed: dict, found: list) -> list:
    """The changes that happen again when their claims run a second time, alone (-n 0): a change that does not
    come back was the machine's load, not the release (it is named, and not counted)."""
    from celerylab.matrix import results, run_claims
    from celerylab.matrix.catalog import split_claim_id

    tests = sorted({split_claim_id(claim)[1] for claim, _, _ in found})
    lessons = sorted({split_claim_id(claim)[0] for claim, _, _ in found})
    say("matrix.check.again", line=release.line, count=len(found))
    try:
        again = run_claims.run(release, python, jobs=1, lessons=lessons, select=" or ".join(tests))
    except RuntimeError as error:
        say("matrix.run_failed", line=release.line, error=str(error))
        return found
    named = {claim for claim, _, _ in found}
    still = results.differences(committed, again, release.line, only=named)
    for claim in sorted(named - {claim for claim, _, _ in still}):
        say("matrix.check.not_again", claim=claim)
    return still


def run(args) -> int:
    from celerylab.matrix import catalog, environments, results, run_claims
    from celerylab.matrix.releases import RELEASES, release

    chosen = [release(line) for line in args.release] if args.release else list(RELEASES)
    unknown = [name for name in args.lesson or [] if not (run_claims.LESSONS / name).is_dir()]
    if unknown:
        say("matrix.unknown_lesson", lessons=", ".join(unknown))
        return 2
    out = args.out or run_claims.LESSONS  # a lessons folder (one observed.json per lesson) or, with --out, one file
    matrix = results.load(out)  # with --check, what each run is compared with; else, what it is merged into
    plan = lessons_to_run(args, chosen)
    if args.stale and not plan:
        say("matrix.stale.none")
        return 0
    changed: dict[str, list] = {}
    for each in [candidate for candidate in chosen if candidate.line in plan]:
        lessons = plan[each.line]
        say("matrix.env", line=each.line, celery=each.celery, kombu=each.kombu)
        try:
            python = environments.ensure(each)
        except environments.ReleaseEnvironmentError as error:
            say("matrix.env_failed", line=each.line, error=str(error))
            return 2
        measuring = {} if args.select else digests(each.line, lessons)  # the inputs this run measures
        say("matrix.run", line=each.line, python=python)
        try:
            column = run_claims.run(each, python, jobs=args.jobs, lessons=lessons, select=args.select,
                                on_line=lambda text, line=each.line: print(f"[{line}] {text}", file=sys.stderr, flush=True))
        except RuntimeError as error:
            say("matrix.run_failed", line=each.line, error=str(error))
            return 2
        outcomes = [claim["outcome"] for claim in column["claims"].values()]
        say("matrix.summary", line=each.line, claims=len(outcomes), passed=outcomes.count("passed"),
            failed=outcomes.count("failed"), other=len(outcomes) - outcomes.count("passed") - outcomes.count("failed"))
        show_unmeasured(each.line, column)
        partial = bool(lessons or args.select)  # a part of the claims ran: compare or replace only those
        if args.check:
            found = results.differences(matrix, column, each.line, only=set(column["claims"]) if partial else None)
            if found:
                found = confirmed(each, python, matrix, found)
            if found:
                changed[each.line] = found
                show_differences(each.line, found)
        else:
            ran = sorted({claim.partition("::")[0] for claim in column["claims"]})
            column = results.measured(column, results.column_claims(matrix, each.line))
            recorded = matrix.get("releases", {}).get(each.line, {}).get("digests", {})
            if partial:  # the others keep what they observed before, unless their test is gone (renamed, removed)
                kept = {claim: result for claim, result in results.column_claims(matrix, each.line).items()
                        if catalog.describe(claim) is not None}
                column = {**column, "claims": {**kept, **column["claims"]}}
            column["digests"] = {**(recorded if partial else {}), **measuring}
            matrix = results.merge(matrix, each.line, column)
            for path in results.save(matrix, out, lessons=ran if partial else None):
                say("matrix.written", path=path)
    if args.check:
        from celerylab.matrix.freshness import refresh_command

        commands = "; ".join(refresh_command(line, sorted({claim.partition("::")[0] for claim, _, _ in found}))
                             for line, found in changed.items())
        say("matrix.check.ok" if not changed else "matrix.check.failed", count=sum(map(len, changed.values())),
            command=commands)
        return 1 if changed else 0
    return 0
