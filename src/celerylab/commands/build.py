"""`celerylab build`: generate (and execute) every lesson's notebooks from lesson.md, or --check freshness."""
from __future__ import annotations

import sys
from pathlib import Path

from celerylab.i18n import t


def register(subparsers) -> None:
    from celerylab.commands._common import add_deprecated, add_lessons_dir
    from celerylab.compiler.model import LANGS

    parser = subparsers.add_parser("build", help=t("build.help"), description=t("build.description"))
    parser.add_argument("--check", action="store_true", help=t("build.opt.check"))
    parser.add_argument("--site", action="store_true", help=t("site.build.opt_site"))
    parser.add_argument("--lang", dest="build_langs", action="append", choices=LANGS, help=t("build.opt.lang"))
    parser.add_argument("--lesson", dest="lessons", action="append", metavar="lNN_slug", help=t("build.opt.lesson"))
    parser.add_argument("--no-execute", action="store_true", help=t("build.opt.no_execute"))
    parser.add_argument("--force", action="store_true", help=t("build.opt.force"))
    parser.add_argument("--jobs", type=int, default=4, help=t("build.opt.jobs"))
    parser.add_argument("--timeout", type=float, default=300, help=t("build.opt.timeout"))
    parser.add_argument("--root", type=Path, help=t("build.opt.root"))
    parser.add_argument("--course-file", type=Path, metavar="FILE", help=t("build.opt.course_file"))
    add_deprecated(parser, "--course", "--course-file", "course_file", type=Path)
    add_lessons_dir(parser, "build.opt.lessons_dir")
    parser.set_defaults(run=run)


def run(args) -> int:
    from dataclasses import replace

    from celerylab.commands._common import command_course
    from celerylab.compiler import stale
    from celerylab.compiler.executor import BuildInterrupted
    from celerylab.compiler.model import LANGS
    from celerylab.compiler.pipeline import build
    from celerylab.compiler.progress_bar import ProgressBar
    from celerylab.i18n import TranslatedError

    course = command_course(args)
    if args.course_file:
        course = replace(course, course_file=args.course_file.resolve())
    root = (args.root or course.output_root).resolve()
    if args.site:
        return _site(root)
    langs = tuple(lang for lang in LANGS if not args.build_langs or lang in args.build_langs)
    try:
        lessons = course.lessons(args.lessons)
        if args.check:
            problems = stale.check(lessons, root, langs, require_executed=not args.no_execute,
                                   whole_course=not args.lessons and langs == LANGS)
            for path, reason in problems:
                print(t("build.check.stale", path=_relative(path, root), reason=t(reason)), file=sys.stderr)
            print(t("build.check.failed" if problems else "build.check.ok", count=len(problems),
                    lessons=len(lessons)), file=sys.stderr if problems else sys.stdout)
            return 1 if problems else 0
        reports = build(lessons, root, langs, execute=not args.no_execute, force=args.force,
                        parallel=args.jobs, timeout=args.timeout, progress=ProgressBar())
    except TranslatedError as error:
        print(str(error), file=sys.stderr)
        return 130 if isinstance(error, BuildInterrupted) else 1
    failed = False
    for report in reports:
        for failure in report.failures:
            print(failure, file=sys.stderr)
        failed = failed or bool(report.failures)
        print(t("build.summary", lesson=report.lesson, written=len(report.written), fresh=len(report.fresh),
                executed=len(report.executed), failed=len(report.failures), seconds=f"{report.seconds:.1f}"))
    return 1 if failed else 0


def _site(root: Path) -> int:
    """Write the site's Markdown pages (lessons, lessons index, home, glossary) from the committed notebooks."""
    from celerylab.sitegen.pages import build_site_pages

    pages = build_site_pages(root)
    count = max((len(lessons) for lessons in pages.lessons.values()), default=0)
    print(t("site.build.site_done", lessons=count, files=len(pages.written)))
    return 0


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)
