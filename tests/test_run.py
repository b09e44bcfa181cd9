"""run.py's first set-up shows its progress: a line per phase of pip's work, with the time elapsed, in the user's language."""
from __future__ import annotations

import importlib.util
import re
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# What `pip install -e .[dev]` prints, in order (shortened).
PIP_OUTPUT = """\
Obtaining file:///course
Collecting celery==5.7.0 (from celerylab==0.1.0)
  Downloading celery-5.7.0-py3-none-any.whl (438 kB)
Requirement already satisfied: packaging in ./.venv/lib/python3.11/site-packages
Collecting kombu==5.7.0
Building editable for celerylab (pyproject.toml): started
Installing collected packages: kombu, celery, celerylab
Successfully installed celery-5.7.0 celerylab-0.1.0 kombu-5.7.0
"""


@pytest.fixture
def run():
    spec = importlib.util.spec_from_file_location("run_bootstrap", ROOT / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_pip(tmp_path: Path, output: str, pause: float = 0.0, code: int = 0) -> list[str]:
    script = tmp_path / "fake_pip.py"
    script.write_text(textwrap.dedent(f"""\
        import sys, time
        for line in {output!r}.splitlines(keepends=True):
            sys.stdout.write(line); sys.stdout.flush()
        time.sleep({pause})
        sys.exit({code})
        """), encoding="utf-8")
    return [sys.executable, str(script)]


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_a_line_per_phase_in_order_with_the_elapsed_time(run, tmp_path, capsys, monkeypatch, lang):
    monkeypatch.setenv("CELERYLAB_LANG", lang)
    log = tmp_path / "pip.log"
    with log.open("w", encoding="utf-8") as out:
        assert run.pip_with_progress(fake_pip(tmp_path, PIP_OUTPUT), out, started=time.monotonic()) == 0
    lines = capsys.readouterr().err.splitlines()
    words = run.MESSAGES[lang]
    expected = [words["phase.resolve"], words["phase.build"], words["phase.install"]]
    assert len(lines) == len(expected)
    for line, template in zip(lines, expected):
        pattern = re.escape(template).replace(r"\{elapsed:\.0f\}", r"\d+").replace(r"\{count\}", "3")
        assert re.fullmatch(pattern, line), (line, template)
    assert log.read_text(encoding="utf-8") == PIP_OUTPUT


def test_a_long_silent_phase_still_says_it_works(run, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CELERYLAB_LANG", "en")
    monkeypatch.setattr(run, "TICK_SECONDS", 0.2)
    with (tmp_path / "pip.log").open("w", encoding="utf-8") as out:
        run.pip_with_progress(fake_pip(tmp_path, PIP_OUTPUT, pause=1.5), out, started=time.monotonic())
    lines = capsys.readouterr().err.splitlines()
    ticks = [line for line in lines if re.fullmatch(r"\[\d+ s\] \.\.\. still working", line)]
    # the three phases come at once, then only the ticks say anything during the 1.5 s pause
    assert len(lines) == 3 + len(ticks) and len(ticks) >= 2


def test_the_pip_upgrade_announces_no_phase(run, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CELERYLAB_LANG", "pt")
    with (tmp_path / "pip.log").open("w", encoding="utf-8") as out:
        run.pip_with_progress(fake_pip(tmp_path, "Requirement already satisfied: pip\n"), out, 0.0, phases=False)
    assert capsys.readouterr().err == ""


def test_the_exit_code_of_pip_is_returned(run, tmp_path):
    with (tmp_path / "pip.log").open("w", encoding="utf-8") as out:
        assert run.pip_with_progress(fake_pip(tmp_path, "ERROR: no\n", code=3), out, 0.0, phases=False) == 3


def test_every_message_in_both_languages_with_the_same_fields(run):
    pt, en = run.MESSAGES["pt"], run.MESSAGES["en"]
    assert set(pt) == set(en)
    field = re.compile(r"\{(\w+)")
    for key in pt:
        assert set(field.findall(pt[key])) == set(field.findall(en[key])), key
        assert pt[key] != en[key], key


def test_pip_runs_without_quiet_so_that_phases_can_be_seen():
    text = (ROOT / "run.py").read_text(encoding="utf-8")
    assert '"-q"' not in text


def test_the_set_up_speaks_the_language_the_command_line_asks_for(run, monkeypatch):
    monkeypatch.delenv("CELERYLAB_LANG", raising=False)
    assert run.language(["lab", "--lang", "en", "--no-browser"]) == "en"
    assert run.language(["lab", "--lang=en"]) == "en"
    assert run.language(["lab"]) == "pt"
    monkeypatch.setenv("CELERYLAB_LANG", "en")
    assert run.language(["test"]) == "en" and run.language(["lab", "--lang", "pt"]) == "pt"


class Asked:
    """A terminal whose learner answers `answer` to the language question."""

    def __init__(self, answer: str):
        self.answer, self.questions = answer, []

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("answer", "lang"), [("en", "en"), ("pt", "pt"), ("", "pt")])
def test_lab_asks_the_language_before_the_install_which_speaks_it(run, monkeypatch, answer, lang):
    monkeypatch.delenv("CELERYLAB_LANG", raising=False)
    terminal = Asked(answer)
    monkeypatch.setattr(run.sys, "stdin", terminal)
    monkeypatch.setattr("builtins.input", lambda question: terminal.questions.append(question) or answer)
    spoken = []

    def install():
        spoken.append(run.language())
        raise SystemExit(0)

    monkeypatch.setattr(run, "ensure_venv", install)
    with pytest.raises(SystemExit):
        run.main(["lab"])
    assert terminal.questions == ["Idioma do curso / Course language [pt/en] "]
    assert spoken == [lang] and run.os.environ["CELERYLAB_LANG"] == lang


@pytest.mark.parametrize("argv", [["lab", "--lang", "en"], ["lab", "--lang=en"], ["test"]])
def test_nothing_is_asked_when_the_language_is_given_or_for_the_tests(run, monkeypatch, argv):
    monkeypatch.delenv("CELERYLAB_LANG", raising=False)
    monkeypatch.setattr(run.sys, "stdin", Asked("pt"))
    monkeypatch.setattr("builtins.input", lambda question: pytest.fail("asked"))
    monkeypatch.setattr(run, "ensure_venv", lambda: (_ for _ in ()).throw(SystemExit(0)))
    with pytest.raises(SystemExit):
        run.main(argv)
    assert "CELERYLAB_LANG" not in run.os.environ
