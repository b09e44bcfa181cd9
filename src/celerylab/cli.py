"""The `celerylab` command: a dispatcher over the subcommands in celerylab.commands."""
from __future__ import annotations

import argparse
import importlib
import re
import sys

from celerylab.i18n import set_lang, t

# Subcommand modules, in the order `celerylab --help` lists them. Each defines
# register(subparsers) and a run(args) -> int that the parser calls.
COMMANDS = [
    "celerylab.commands.lab",
    "celerylab.commands.doctor",
    "celerylab.commands.audit",
    "celerylab.commands.check",
    "celerylab.commands.progress",
    "celerylab.commands.hint",
    "celerylab.commands.solution",
    "celerylab.commands.reset",
    "celerylab.commands.collect",
    "celerylab.commands.grade",
    "celerylab.commands.build",
    "celerylab.commands.matrix",
    "celerylab.commands.dev",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="celerylab", description=t("cli.description"))
    parser.add_argument("--lang", choices=["pt", "en"], help=t("cli.lang"))
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(subparsers)
    for each in (parser, *subparsers.choices.values()):
        translate_argparse(each)
    return parser


class TranslatedFormatter(argparse.HelpFormatter):
    """argparse's "usage:" prefix in the current language."""

    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, prefix or t("cli.usage") + " ")


# argparse's own error messages (it reads them through its module-level gettext `_`) -> catalog keys.
ARGPARSE_MESSAGES = {
    "%(prog)s: error: %(message)s\n": "cli.argparse.error",
    "argument %(argument_name)s: %(message)s": "cli.argparse.argument",
    "the following arguments are required: %s": "cli.argparse.required",
    "one of the arguments %s is required": "cli.argparse.one_of",
    "unrecognized arguments: %s": "cli.argparse.unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "cli.argparse.invalid_choice",
    "invalid %(type)s value: %(value)r": "cli.argparse.invalid_value",
    "expected one argument": "cli.argparse.expected_one",
    "ambiguous option: %(option)s could match %(matches)s": "cli.argparse.ambiguous",
    "not allowed with argument %s": "cli.argparse.not_allowed",
}
_argparse_gettext = argparse._


def argparse_text(message: str) -> str:
    """argparse's message in the current language (unknown ones as argparse has them)."""
    key = ARGPARSE_MESSAGES.get(message)
    return t(key) if key else _argparse_gettext(message)


argparse._ = argparse_text  # the usage line and the error under it speak the same language


def translate_argparse(parser: argparse.ArgumentParser) -> None:
    """argparse's own words (usage, section titles, the -h help) in the current language."""
    parser.formatter_class = TranslatedFormatter
    parser._positionals.title = t("cli.positionals")
    parser._optionals.title = t("cli.options")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = t("cli.help")
        elif action.help:
            action.help = literal_percent(action.help)
        for choice in getattr(action, "_choices_actions", ()):  # the subcommands' one-line help
            choice.help = literal_percent(choice.help) if choice.help else choice.help


def literal_percent(text: str) -> str:
    """A catalog help text as argparse prints it: it %-formats help, so a bare "%" ("10%") is doubled;
    ``%(default)s`` and the like keep working."""
    return re.sub(r"%(?!\()", "%%", text)


def lang_asked(argv: list[str]) -> str | None:
    """The language `--lang xx` or `--lang=xx` asks for, wherever it stands (the last one wins), else None."""
    asked = None
    for index, word in enumerate(argv):
        if word == "--lang" and index + 1 < len(argv):
            asked = argv[index + 1]
        elif word.startswith("--lang="):
            asked = word.removeprefix("--lang=")
    return asked if asked in ("pt", "en") else None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    early = lang_asked(argv)
    if early:
        set_lang(early)  # before the parser is built: its help texts and argparse's words are in that language
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.lang:
        set_lang(args.lang)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print(t("cli.interrupted"), file=sys.stderr)
        return 130
    except Exception as error:  # one readable line, not a traceback
        from celerylab.stack.errors import StackError

        if isinstance(error, StackError):
            print(str(error), file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
