"""`celerylab audit`: the course's silent defects, found in the learner's own Celery app (celerylab.audit)."""
from __future__ import annotations

import argparse
import os
import sys

from celerylab.audit.model import SEVERITIES
from celerylab.commands._common import add_lang
from celerylab.i18n import t

FORMATS = ("text", "json", "sarif")
FAIL_ON = ("defect", *SEVERITIES)


def register(subparsers) -> None:
    parser = subparsers.add_parser("audit", help=t("audit.help"), description=t("audit.help"),
                                   epilog=t("audit.epilog"), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-A", "--app", help=t("audit.opt.app"))
    parser.add_argument("--format", choices=FORMATS, default="text", help=t("audit.opt.format"))
    parser.add_argument("--explain", metavar="RULE", help=t("audit.opt.explain"))
    parser.add_argument("--rules", action="store_true", help=t("audit.opt.rules"))
    parser.add_argument("--ignore", metavar="RULE[:SUBJECT]", action="append", default=[], help=t("audit.opt.ignore"))
    parser.add_argument("--fail-on", choices=FAIL_ON, default="defect", help=t("audit.opt.fail_on"))
    parser.add_argument("--strict", action="store_true", help=t("audit.opt.strict"))
    parser.add_argument("--no-practice", action="store_true", help=t("audit.opt.no_practice"))
    parser.add_argument("--path", help=t("audit.opt.path"))
    parser.add_argument("--scan", metavar="DIR", action="append", default=[], help=t("audit.opt.scan"))
    parser.add_argument("--site-url", metavar="URL", help=t("audit.opt.site_url"))
    parser.add_argument("--live", action="store_true", help=t("audit.opt.live"))
    add_lang(parser)
    parser.set_defaults(run=run)


def render(report, kind: str) -> str:
    from celerylab.audit import format_json, format_sarif, format_text

    return {"text": format_text, "json": format_json, "sarif": format_sarif}[kind].render(report)


def failed(spec: str, kind: str, message: str) -> int:
    """Exit 2 with the reason on stderr; JSON and SARIF still print a document that parses, saying it."""
    from celerylab.audit import format_json, format_sarif

    print(message, file=sys.stderr)
    if kind != "text":
        print({"json": format_json, "sarif": format_sarif}[kind].failed(spec, message))
    return 2


def app_spec(args) -> str | None:
    """-A as given; without it, the default app a worker started there without -A runs (with a celeryconfig)."""
    from celerylab.audit.loader import DEFAULT_SPECS, has_config_module

    if args.app:
        return args.app
    return DEFAULT_SPECS[0] if has_config_module(os.path.abspath(args.path or os.getcwd())) else None


def run(args) -> int:
    from celerylab.audit import site
    from celerylab.audit.api import audit
    from celerylab.audit.explain import explain, rule_list, unknown_rule
    from celerylab.audit.live import NoAnswer
    from celerylab.audit.loader import LoadError
    from celerylab.audit.quiet import stdout_to_stderr
    from celerylab.stack.errors import StackError

    site.chosen = args.site_url
    if args.rules:
        print(rule_list())
        return 0
    if args.explain:
        text = explain(args.explain)
        print(text or unknown_rule(args.explain), file=sys.stdout if text else sys.stderr)
        return 0 if text else 2
    spec = app_spec(args)
    if not spec:
        print(t("audit.no_app"), file=sys.stderr)
        return 2

    def said(names):
        print(t("audit.live.registered", count=len(names)), file=sys.stderr)

    if args.live:
        print(t("audit.live.start", app=spec), file=sys.stderr)
    try:
        with stdout_to_stderr():  # the user's code prints while it loads: stdout is the report's alone
            report = audit(spec, ignore=args.ignore, practice=not args.no_practice, path=args.path,
                           live=args.live, on_live=said, scan=args.scan)
            rendered = render(report, args.format)
    except LoadError as error:
        return failed(spec, args.format, str(error))
    except (StackError, NoAnswer) as error:  # --live: the worker did not start or did not answer
        return failed(spec, args.format, t("audit.live.failed", error=error))
    print(rendered)
    return report.exit_status(args.fail_on, strict=args.strict)
