"""Notebooks become Markdown pages: prose, fenced code, outputs, images as files, admonitions, glossary, nav."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from celerylab.sitegen.glossary import gather, tables_in
from celerylab.sitegen.html_table import html_table_to_markdown
from celerylab.sitegen.nb_markdown import notebook_to_page
from celerylab.sitegen.nb_outputs import fence, render_outputs
from celerylab.sitegen.pages import build_site_pages, notebooks_in_order, site_nav

FIXTURES = Path(__file__).resolve().parents[1] / "site" / "fixtures" / "notebooks"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def fixture(lang: str) -> dict:
    return json.loads((FIXTURES / lang / "90_fixture.ipynb").read_text(encoding="utf-8"))


def test_fixture_notebook_becomes_a_page_with_every_kind_of_output():
    page = notebook_to_page(fixture("pt"), "90_fixture", "pt")
    md = page.markdown
    assert page.title == "Lição 90 — página de teste quokkafixture"
    assert "```python\nprint('...')\n```" in md
    assert "```output\nentregas: 2\n```" in md
    assert "```output\nwarning: slow\n```" in md and "\x1b" not in md
    assert "![Barras: uma entrega na tentativa 1, duas na tentativa 2](90_fixture_files/plot-1.png)" in md
    assert page.files["plot-1.png"].startswith(PNG_MAGIC)
    assert "| 1 | 2 | sent \\| ok |" in md and "<table" not in md
    assert '!!! failure "Erro"' in md and "    TimeoutError: provider did not answer in 2.0 s" in md
    assert '!!! warning "Cuidado"\n\n    Não repita o efeito.' in md
    assert "```mermaid\nflowchart LR" in md
    assert "[Esta mesma página](90_fixture.md)" in md
    assert "secret = 1" not in md  # remove-cell
    assert "base64" not in md and "data:image" not in md


def test_english_page_uses_english_labels():
    page = notebook_to_page(fixture("en"), "90_fixture", "en")
    assert page.title.startswith("Lesson 90")
    assert "![Bars: one delivery at attempt 1, two at attempt 2](90_fixture_files/plot-1.png)" in page.markdown
    assert '!!! failure "Error"' in page.markdown


def test_solutions_are_collapsed_after_their_exercise():
    for lang, label, statement in (("pt", "Mostrar a solução", "### Exercício 1"), ("en", "Show the solution", "### Exercise 1")):
        md = notebook_to_page(fixture(lang), "90_fixture", lang).markdown
        collapsed = md.index(f'??? success "{label}"')
        assert md.index(statement) < collapsed < md.index("    ```python\n    %%writefile ex_once.py")
        assert md.index("    PASS quokkasolution") > collapsed
        assert "\nPASS quokkasolution" not in md  # never outside the collapsed block


def test_cell_metadata_gives_docs_link_plot_alt_and_language_of_a_passage():
    pt = notebook_to_page(fixture("pt"), "90_fixture", "pt").markdown
    en = notebook_to_page(fixture("en"), "90_fixture", "en").markdown
    url = "https://docs.celeryq.dev/en/stable/userguide/tasks.html#retrying"
    assert f"**Na documentação oficial do Celery:** [{url}]({url})" in pt
    assert f"**In the official Celery documentation:** [{url}]({url})" in en
    assert '<blockquote lang="en" markdown>\n\nCelery gives you' in pt
    assert "lang=" not in en  # English in an English page needs no mark
    plain = {"cells": [{"cell_type": "markdown", "source": "## Timeline", "metadata": {}},
                       {"cell_type": "code", "source": "plot()", "metadata": {}, "outputs": [
                           {"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo="}}]}]}
    assert "![Plot in the section “Timeline”" in notebook_to_page(plain, "p", "en").markdown


def test_printed_tables_become_markdown_tables():
    from celerylab.sitegen.text_table import text_table_to_markdown

    assert text_table_to_markdown("a    b c\n1    x y\n22   z w\n") == "| a | b c |\n|---|---|\n| 1 | x y |\n| 22 | z w |"
    assert text_table_to_markdown("entregas: 2\n") is None
    assert text_table_to_markdown("label: 1\nother label: 2\n") is None
    md = notebook_to_page(fixture("en"), "90_fixture", "en").markdown
    assert "| attempt | outcome |\n|---|---|\n| 1 | timeout |\n| 2 | sent |" in md


def test_tables_printed_back_to_back_become_one_table_each():
    from celerylab.sitegen.text_table import text_table_to_markdown

    printed = ("worker           filas (-Q)  concorrência\n"
               "celery@default   default     2\n"
               "celery@priority  priority    1\n"
               "tarefa              estado   worker\n"
               "email.send_welcome  SUCCESS  celery@priority\n")  # lesson 06's: read as one, cells held gutters
    assert text_table_to_markdown(printed) == (
        "| worker | filas (-Q) | concorrência |\n|---|---|---|\n| celery@default | default | 2 |\n"
        "| celery@priority | priority | 1 |\n\n"
        "| tarefa | estado | worker |\n|---|---|---|\n| email.send_welcome | SUCCESS | celery@priority |")
    garbled = ("desligamento               tarefa (s)  terminou  worker saiu após  espera soft\n"
               "quente (SIGTERM)           1,5         sim       3,6 s             não\n"
               "soft 2 s, ocioso           -           -         1,7 s             não\n"
               "o log diz 'Restoring 1 unacknowledged message(s)': sim\n")  # lesson 02's: a sentence after it
    assert text_table_to_markdown(garbled) is None  # printed as it is, not as a table with gutters in its cells
    assert text_table_to_markdown("a  b\n1  2\nxx  y  z  w\n") is None  # a part that is no table: left as text


def test_fences_outgrow_backticks_in_the_text():
    block = fence("a\n```\nb")
    assert block.startswith("````output\n") and block.endswith("\n````")


def test_rich_outputs_pick_the_most_useful_representation():
    outputs = [
        {"output_type": "display_data", "data": {"text/markdown": "**deliveries: 1**", "text/plain": "x"}},
        {"output_type": "display_data", "data": {"text/html": "<b>not a table</b>", "text/plain": "plain"}},
        {"output_type": "display_data", "data": {"image/svg+xml": "<svg></svg>"}},
        {"output_type": "execute_result", "data": {"application/json": {"a": 1}}},
    ]
    rendered = render_outputs(outputs, "cell", "page_files", "en")
    assert rendered.blocks[0] == "**deliveries: 1**"
    assert rendered.blocks[1] == "```output\nplain\n```"
    assert rendered.blocks[2] == "![Cell output](page_files/cell-3.svg)"
    assert rendered.files["cell-3.svg"] == b"<svg></svg>"
    assert rendered.blocks[3].startswith("```json\n{\n")


def test_a_table_cell_s_angle_brackets_stay_text():
    table = html_table_to_markdown("<table><tr><th>GET /tasks/&lt;id&gt;</th></tr><tr><td>a &amp; b</td></tr></table>")
    assert "GET /tasks/&lt;id&gt;" in table and "a &amp; b" in table and "<id>" not in table


def test_html_tables():
    assert html_table_to_markdown("<p>hi</p>") is None
    assert html_table_to_markdown("<table><tr><td>a</td></tr></table><table></table>") is None
    table = html_table_to_markdown("<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table>")
    assert table == "| k | v |\n|---|---|\n| a | 1 |"


def test_attachments_are_extracted():
    cell = {"cell_type": "markdown", "source": "![x](attachment:shot.png)", "metadata": {},
            "attachments": {"shot.png": {"image/png": "iVBORw0KGgo="}}}
    page = notebook_to_page({"cells": [cell]}, "p", "pt")
    assert "](p_files/cell-1-shot-png)" in page.markdown
    assert page.files["cell-1-shot-png"].startswith(b"\x89PNG")


def test_glossary_tables_in_either_column_order():
    assert tables_in("| PT | EN |\n|---|---|\n| Fila | Queue |\n\ntext") == [("Fila", "Queue")]
    assert tables_in("| **EN** | **PT** |\n|:--|:--|\n| Queue | Fila |") == [("Fila", "Queue")]
    assert tables_in("| a | b |\n|---|---|\n| x | y |") == []


def make_root(tmp_path: Path, course: list[str]) -> Path:
    for lang in ("pt", "en"):
        (tmp_path / "notebooks" / lang).mkdir(parents=True)
        shutil.copy(FIXTURES / lang / "90_fixture.ipynb", tmp_path / "notebooks" / lang / "90_fixture.ipynb")
    (tmp_path / "src" / "celerylab").mkdir(parents=True)
    (tmp_path / "src" / "celerylab" / "course.yml").write_text("".join(f"- {n}\n" for n in course))
    return tmp_path


def test_course_order_and_only_the_listed_lessons(tmp_path):
    root = make_root(tmp_path, ["l95_later", "l90_fixture"])
    shutil.copy(FIXTURES / "pt" / "90_fixture.ipynb", root / "notebooks" / "pt" / "95_later.ipynb")
    shutil.copy(FIXTURES / "pt" / "90_fixture.ipynb", root / "notebooks" / "pt" / "05_unlisted.ipynb")
    assert [p.stem for p in notebooks_in_order(root, "pt")] == ["95_later", "90_fixture"]


def test_build_writes_pages_index_glossary_and_prunes_stale_files(tmp_path):
    root = make_root(tmp_path, ["l90_fixture"])
    stale = root / "site" / "pt" / "lessons" / "old_files" / "x.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"x")
    pages = build_site_pages(root)
    assert pages.lessons["pt"] == [("90_fixture", "Lição 90 — página de teste quokkafixture")]
    for lang in ("pt", "en"):
        lesson = root / "site" / lang / "lessons" / "90_fixture.md"
        assert lesson.read_text().startswith("---\ntitle: ")
        assert (root / "site" / lang / "lessons" / "90_fixture_files" / "plot-1.png").is_file()
        assert "(90_fixture.md)" in (root / "site" / lang / "lessons" / "index.md").read_text()
    assert not stale.exists() and not stale.parent.exists()
    glossary_pt = (root / "site" / "pt" / "glossary.md").read_text()
    assert "| **Janela de visibilidade** | Visibility timeout | No broker Redis" in glossary_pt and "| [90](lessons/90_fixture.md) |" in glossary_pt
    assert "**Backoff exponencial**" in glossary_pt  # seeded from the course notes
    assert "| **Visibility timeout** | Janela de visibilidade |" in (root / "site" / "en" / "glossary.md").read_text()

    lesson = root / "site" / "pt" / "lessons" / "90_fixture.md"
    before = lesson.stat().st_mtime_ns
    build_site_pages(root)
    assert lesson.stat().st_mtime_ns == before  # unchanged content is not rewritten


def test_a_lesson_missing_in_one_language_is_not_linked_there(tmp_path):
    root = make_root(tmp_path, ["l90_fixture"])
    (root / "notebooks" / "en" / "90_fixture.ipynb").unlink()
    pages = build_site_pages(root)
    assert pages.lessons["en"] == []
    assert "90_fixture" not in (root / "site" / "en" / "glossary.md").read_text()
    assert not (root / "site" / "en" / "lessons" / "90_fixture.md").exists()


def test_nav_lists_lessons_in_order_with_translated_sections(tmp_path):
    pages = build_site_pages(make_root(tmp_path, ["l90_fixture"]))
    nav = site_nav(pages, "en")
    assert nav[0] == {"Home": "index.md"}
    assert nav[1] == {"Lessons": ["lessons/index.md", "lessons/90_fixture.md"]}
    assert [list(item)[0] for item in site_nav(pages, "pt")] == ["Início", "Lições", "Exercícios", "Diagramas", "Glossário",
                                                                   "Regras do audit", "Entre versões do Celery"]


def test_lesson_terms_join_the_seed_entry_they_match():
    cell = {"cell_type": "markdown", "source": "| PT | EN |\n|---|---|\n| jitter (espera sorteada) | jitter |\n"
            "| upsert | Upsert (insert or update) |\n| termo novo | new term |"}
    terms = gather([("01_x", {"cells": [cell]})])
    by_pt = {term.pt: term for term in terms}
    assert by_pt["Jitter"].lessons == ["01_x"] and by_pt["Upsert"].lessons == ["01_x"]
    assert by_pt["Termo novo"].en == "New term" and by_pt["Termo novo"].about == {}
    assert "jitter (espera sorteada)" not in by_pt


def test_glossary_gives_every_term_a_definition_and_no_default_guarantee_celery_lacks():
    from celerylab.sitegen.glossary import seed_entries

    root = Path(__file__).resolve().parents[2]
    notebooks = [(path.stem, json.loads(path.read_text(encoding="utf-8")))
                 for lang in ("pt", "en") for path in sorted((root / "notebooks" / lang).glob("*.ipynb"))]
    notebooks += [("90_fixture", fixture("pt"))]
    empty = [f"{term.pt} / {term.en}" for term in gather(notebooks)
             if not (term.about.get("pt", "").strip() and term.about.get("en", "").strip())]
    assert empty == [], "add a definition to the lesson's glossary.yml for: " + ", ".join(empty)
    for item in seed_entries():
        text = (item["about"]["pt"] + item["about"]["en"]).lower()
        assert "garantia padrão" not in text and "default guarantee" not in text, item["en"]


def test_home_lists_the_course_lessons_with_prev_next_links_and_the_notes_explained(tmp_path):
    root = make_root(tmp_path, ["l90_fixture", "l95_later"])
    for lang in ("pt", "en"):
        shutil.copy(FIXTURES / lang / "90_fixture.ipynb", root / "notebooks" / lang / "95_later.ipynb")
        (root / "site" / lang).mkdir(parents=True, exist_ok=True)
        (root / "site" / lang / "_home.md").write_text("# Home\n\n<!-- celerylab:lessons (generated) -->\n\n## More\n")
    build_site_pages(root)
    home = (root / "site" / "pt" / "index.md").read_text()
    assert "## As lições publicadas\n\n1. [Lição 90 — página de teste quokkafixture](lessons/90_fixture.md)\n" \
           "1. [Lição 90 — página de teste quokkafixture](lessons/95_later.md)\n\n## More" in home
    assert "celerylab:lessons" not in home and "## The published lessons" in (root / "site" / "en" / "index.md").read_text()
    first = (root / "site" / "en" / "lessons" / "90_fixture.md").read_text()
    later = (root / "site" / "pt" / "lessons" / "95_later.md").read_text()
    assert "**Next lesson:** [Lesson 90 — test page quokkafixture](95_later.md) →" in first and "Previous" not in first
    assert "← **Lição anterior:** [Lição 90 — página de teste quokkafixture](90_fixture.md)" in later
    assert "[notas do curso](../index.md#as-notas-do-curso)" in later and later.count("](../index.md#as-notas") == 1
    assert "[course notes](../index.md#the-course-notes)" in first


def test_the_build_command_writes_the_site_pages(tmp_path, capsys):
    from celerylab.cli import main

    root = make_root(tmp_path, ["l90_fixture"])
    assert main(["--lang", "en", "build", "--site", "--root", str(root)]) == 0
    assert "site: lessons per language: 1;" in capsys.readouterr().out
    assert (root / "site" / "en" / "lessons" / "90_fixture.md").is_file()


def test_the_language_setup_cell_is_not_on_the_page():
    cells = [{"cell_type": "markdown", "source": "# Lição 90", "metadata": {"celerylab": {"id": "title"}}},
             {"cell_type": "code", "source": 'from celerylab.i18n import set_lang\nset_lang("pt");', "outputs": [],
              "metadata": {"celerylab": {"id": "lang-pt", "lang": "pt"}}},
             {"cell_type": "code", "source": "print(1)", "outputs": [], "metadata": {"celerylab": {"id": "first"}}}]
    page = notebook_to_page({"cells": cells, "metadata": {}}, "90_fixture", "pt")
    assert "set_lang" not in page.markdown and "print(1)" in page.markdown
