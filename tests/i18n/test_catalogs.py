"""Every message exists in Portuguese and English, with the same placeholders."""
from __future__ import annotations

import pytest

from celerylab.i18n import LANGS, catalog, normalize, placeholders, t


def test_every_message_has_both_languages_and_same_placeholders():
    problems = []
    for key, texts in catalog().items():
        if set(texts) != set(LANGS):
            problems.append(f"{key}: languages {sorted(texts)}")
        elif placeholders(texts["pt"]) != placeholders(texts["en"]):
            problems.append(f"{key}: placeholders differ")
    assert problems == []


def test_language_selection():
    assert normalize("en_US.UTF-8") == "en"
    assert normalize("pt-BR") == "pt"
    assert normalize(None) == "pt"
    assert t("cli.interrupted", lang="en") == "Interrupted."


def test_unknown_key_is_an_error():
    with pytest.raises(KeyError):
        t("no.such.key")


def catalog_files_in_package():
    """Every catalog file the package holds, found by shape (a messages.yml anywhere, the tool's i18n/*.yml), so a
    new family is covered without being listed."""
    from celerylab.authoring.catalogs import PACKAGE

    found = [*PACKAGE.glob("i18n/*.yml"), *PACKAGE.rglob("messages.yml")]
    return sorted(path for path in found if "template" not in path.parts and "__pycache__" not in path.parts)


def test_every_catalog_file_has_both_languages_and_the_same_placeholders_in_each_entry():
    from celerylab.authoring.catalogs import entry_problems
    from celerylab.authoring.problems import yaml_mapping

    files = catalog_files_in_package()
    assert {path.parent.name for path in files} >= {"i18n", "audit", "sitegen", "matrix", "deploy", "l01_retries"}
    problems = []
    for path in files:
        data, lines, found = yaml_mapping(path)
        problems += [*found, *(problem for key, texts in data.items()
                               for problem in entry_problems(path, lines.get(key, 1), key, texts))]
    assert [problem.render() for problem in problems] == []


def test_dev_check_reads_every_catalog_file():
    from celerylab.authoring.catalogs import catalog_files
    from celerylab.course import Course

    course = Course()
    assert set(catalog_files(course.lessons_dir, course.lesson_names())) == set(catalog_files_in_package())


def test_run_pys_set_up_messages_have_the_same_keys_and_placeholders_in_both_languages():
    import ast
    from pathlib import Path

    source = Path(__file__).resolve().parents[2] / "run.py"
    [node] = [node for node in ast.parse(source.read_text(encoding="utf-8")).body
              if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "MESSAGES"]
    messages = ast.literal_eval(node.value)
    assert set(messages) == set(LANGS) and set(messages["pt"]) == set(messages["en"])
    assert {key: placeholders(text) for key, text in messages["pt"].items()} == \
        {key: placeholders(text) for key, text in messages["en"].items()}
