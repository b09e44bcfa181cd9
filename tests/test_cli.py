"""The celerylab command line: every subcommand listed, argparse's own words translated."""
from __future__ import annotations

import pytest

from celerylab import cli
from celerylab.i18n import set_lang


@pytest.mark.parametrize("lang,usage,options", [("pt", "uso:", "opções:"), ("en", "usage:", "options:")])
@pytest.mark.parametrize("spelled", [["--lang", "{lang}", "hint", "--help"], ["hint", "--help", "--lang={lang}"],
                                     ["grade", "--lang={lang}", "--help"], ["grade", "--help", "--lang", "{lang}"]])
def test_help_is_in_the_chosen_language(lang, usage, options, spelled, capsys):
    set_lang("en" if lang == "pt" else "pt")
    with pytest.raises(SystemExit):
        cli.main([word.format(lang=lang) for word in spelled])
    text = capsys.readouterr().out
    set_lang("pt")
    assert text.startswith(usage) and options in text


def command_modules() -> set[str]:
    """The modules of celerylab/commands/ that define a subcommand (a `register` function)."""
    import importlib
    import pkgutil

    import celerylab.commands

    names = {f"celerylab.commands.{info.name}" for info in pkgutil.iter_modules(celerylab.commands.__path__)}
    return {name for name in names if callable(getattr(importlib.import_module(name), "register", None))}


def test_every_command_module_is_registered_under_its_own_name():
    modules = command_modules()
    assert len(modules) >= 12 and "celerylab.commands.matrix" in modules
    assert set(cli.COMMANDS) == modules
    commands = set(cli.build_parser()._subparsers._group_actions[0].choices)
    assert commands == {name.rsplit(".", 1)[1] for name in modules}


def test_argparse_errors_speak_the_language_of_the_usage_line(capsys):
    import pytest

    from celerylab import cli
    from celerylab.i18n import set_lang

    for argv, words in ((["reset"], "faltam estes argumentos: exercise"),
                        (["check", "--bogus"], "erro: argumentos não reconhecidos: --bogus"),
                        (["--lang", "en", "reset"], "error: the following arguments are required: exercise")):
        with pytest.raises(SystemExit):
            cli.main(argv)
        err = capsys.readouterr().err
        assert words in err and ("uso:" in err) == ("erro:" in err)
        set_lang("pt")


def every_command(parser, path=()):
    """The command paths of `parser` and of every subcommand below it (``("dev", "check")``)."""
    import argparse

    yield path
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from every_command(sub, (*path, name))


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_every_subcommands_help_prints_in_both_languages(lang, capsys):
    """`--help` of each command of the registry (cli.COMMANDS), nested ones too: no traceback (a bare "%" in
    a catalog help text made argparse's %-formatting raise) and the help itself in the language asked."""
    set_lang(lang)
    try:
        paths = list(every_command(cli.build_parser()))
        assert {"grade", "dev"} <= {path[0] for path in paths if path}
        assert len(paths) > len(cli.COMMANDS)
        for path in paths:
            with pytest.raises(SystemExit) as done:
                cli.main(["--lang", lang, *path, "--help"])
            assert done.value.code == 0, path
            text = capsys.readouterr().out
            assert text.startswith("uso:" if lang == "pt" else "usage:"), (path, text[:200])
        capsys.readouterr()
        with pytest.raises(SystemExit):
            cli.main(["--lang", lang, "grade", "--help"])
        text = capsys.readouterr().out
        assert ("% dos pontos" if lang == "pt" else "% of the points") in text
    finally:
        set_lang("pt")
