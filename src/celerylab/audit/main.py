"""`celerylab-audit`: the audit alone, the command of the light distribution (the options of `celerylab audit`)."""
from __future__ import annotations

import argparse
import importlib.util
import sys

from celerylab.i18n import set_lang, t

PROG = "celerylab-audit"


def build_parser() -> argparse.ArgumentParser:
    """The `celerylab audit` subcommand's own parser, named as the light distribution's command."""
    from celerylab.cli import translate_argparse
    from celerylab.commands import audit

    subparsers = argparse.ArgumentParser(prog=PROG).add_subparsers()
    audit.register(subparsers)
    parser = subparsers.choices["audit"]
    parser.prog = PROG
    translate_argparse(parser)
    return parser


def has_stack() -> bool:
    """The course's live stack is installed (the course's distribution; the light one ships the audit alone)."""
    return importlib.util.find_spec("celerylab.stack.stack") is not None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--lang" in argv[:-1]:   # before the parser is built: its help texts are read in that language
        set_lang(argv[argv.index("--lang") + 1])
    args = build_parser().parse_args(argv)
    if getattr(args, "lang", None):
        set_lang(args.lang)
    if args.live and not has_stack():
        print(t("audit.light.no_live"), file=sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print(t("cli.interrupted"), file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
