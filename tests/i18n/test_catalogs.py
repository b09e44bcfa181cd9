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


def test_one_lookup_reads_every_catalog_family():
    """t() reads the tool's and the lessons' catalogs and each family kept beside its code, by key prefix."""
    from celerylab.i18n import FAMILY_CATALOGS, PACKAGE, family_catalog

    assert {PACKAGE / path for path in FAMILY_CATALOGS.values()} == \
        {path for path in catalog_files_in_package() if path.parent.name in ("audit", "sitegen", "matrix", "deploy", "hub")}
    for prefix in FAMILY_CATALOGS:
        key, texts = next(iter(family_catalog(prefix).items()))
        assert key.startswith(prefix), (prefix, key)
        assert t(key, lang="en", **{name: "x" for name in placeholders(texts["en"])}) == \
            texts["en"].format(**{name: "x" for name in placeholders(texts["en"])})
    assert t("site.build.opt_site", lang="pt") == family_catalog("site.")["site.build.opt_site"]["pt"]
    # a key with a family's prefix that only the tool's catalogs hold still resolves (the site uses some)
    tool_site_keys = [key for key in catalog() if key.startswith("site.") and key not in family_catalog("site.")]
    assert tool_site_keys and t(tool_site_keys[0], lang="en", **{
        name: "x" for name in placeholders(catalog()[tool_site_keys[0]]["en"])})


def test_a_family_catalog_is_not_in_any_lesson_digest():
    """Rewording the audit, the site, the matrix or the health check re-executes no notebook."""
    from celerylab.compiler.digest import package_files
    from celerylab.compiler.model import Lesson
    from celerylab.course import Course
    from celerylab.i18n import FAMILY_CATALOGS, PACKAGE

    families = {PACKAGE / path for path in FAMILY_CATALOGS.values()}
    course = Course()
    for name in course.lesson_names():
        assert not families & set(package_files(Lesson(name, course.lessons_dir / name))), name
