"""The celerylab command line: every subcommand listed, argparse's own words translated."""
from __future__ import annotations

import pytest

from celerylab import cli
from celerylab.i18n import set_lang


@pytest.mark.parametrize("lang,usage,options", [("pt", "uso:", "opções:"), ("en", "usage:", "options:")])
def test_help_is_in_the_chosen_language(lang, usage, options, capsys):
    with pytest.raises(SystemExit):
        cli.main(["--lang", lang, "hint", "--help"])
    text = capsys.readouterr().out
    set_lang("pt")
    assert text.startswith(usage) and options in text


def test_every_command_module_is_registered():
    commands = set(cli.build_parser()._subparsers._group_actions[0].choices)
    assert {"lab", "doctor", "check", "hint", "progress", "solution", "grade", "build"} <= commands


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
