"""`mkdocs build --strict` succeeds, regenerates the lesson pages first, and yields a site whose links all hold."""
from __future__ import annotations

import json
import re

import pytest
from site_helpers import ROOT, mkdocs_build

from celerylab.sitegen.links import check_site

pytestmark = pytest.mark.live


SWITCH = re.compile(r'<a href="([^"]*)" hreflang="(pt|en)" class="md-select__link">')


def test_the_checkout_builds_strictly_with_no_broken_link(tmp_path):
    site = tmp_path / "site_build"
    result = mkdocs_build(ROOT / "mkdocs.yml", site)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (site / "index.html").is_file() and (site / "en" / "index.html").is_file()
    assert (ROOT / "site" / "pt" / "lessons" / "index.md").is_file()  # generated before the build
    assert check_site(site) == []
    for lang, prefix in (("pt", ""), ("en", "en/")):  # every committed lesson notebook has its page, in the nav
        for notebook in sorted((ROOT / "notebooks" / lang).glob("*.ipynb")):
            assert (site / prefix / "lessons" / notebook.stem / "index.html").is_file(), notebook
            assert f"lessons/{notebook.stem}/" in (site / prefix / "index.html").read_text(encoding="utf-8")


def test_every_page_switches_to_the_same_page_in_the_other_language(built_site):
    pages = [p for p in built_site.rglob("index.html") if not p.relative_to(built_site).as_posix().startswith("en/")]
    assert len(pages) >= 6
    for page in pages:
        path = page.parent.relative_to(built_site).as_posix().strip(".")
        links = dict((lang, href) for href, lang in SWITCH.findall(page.read_text(encoding="utf-8")))
        target = (page.parent / links["en"]).resolve()
        assert target == (built_site / "en" / path).resolve(), page
        back = (target / "index.html").read_text(encoding="utf-8")
        en_links = dict((lang, href) for href, lang in SWITCH.findall(back))
        assert (target / en_links["pt"]).resolve() == page.parent.resolve()


def test_lesson_pages_exist_in_both_languages_with_their_images(built_site):
    for prefix in ("", "en/"):
        page = built_site / prefix / "lessons" / "90_fixture" / "index.html"
        html = page.read_text(encoding="utf-8")
        assert (built_site / prefix / "lessons" / "90_fixture_files" / "plot-1.png").is_file()
        assert "90_fixture_files/plot-1.png" in html
        assert '<pre class="mermaid">' in html  # a notebook cell's diagram goes through Material's mermaid
        assert 'class="admonition warning"' in html
        assert "data:image" not in html and len(html.encode()) < 150_000


def test_fixture_site_links_are_all_local_and_resolve(built_site):
    assert check_site(built_site) == []


def test_search_index_holds_one_language_each(built_site):
    pt = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    en = json.loads((built_site / "en" / "search" / "search_index.json").read_text(encoding="utf-8"))
    pt_titles = {doc["title"] for doc in pt["docs"]}
    en_titles = {doc["title"] for doc in en["docs"]}
    assert "Lição 90 — página de teste quokkafixture" in pt_titles and "Lesson 90 — test page quokkafixture" not in pt_titles
    assert "Lesson 90 — test page quokkafixture" in en_titles and "Lição 90 — página de teste quokkafixture" not in en_titles
    assert not any(doc["location"].startswith("en/") for doc in pt["docs"] + en["docs"])


def test_the_releases_page_is_searched_by_its_claims_not_by_every_observed_value(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    releases = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("releases/"))
    html = (built_site / "releases" / "index.html").read_text(encoding="utf-8")
    assert html.count('class="cl-observed"') > 50 and "<li><strong>Celery 5.7</strong>: " in html
    assert "broker_unacked=" in html and "retry_backoff" in releases  # a folded value, a claim's word
    assert "broker_unacked=" not in releases and "<li>Celery" not in releases


def test_code_carries_spans_only_where_its_colour_changes_and_table_cells_their_header(built_site):
    html = (built_site / "lessons" / "01_retries" / "index.html").read_text(encoding="utf-8")
    assert '<span class="k">' in html and '<span class="s2">' in html and '<span class="nb">' in html
    for plain in ("n", "w", "p", "o", "go"):
        assert f'<span class="{plain}">' not in html, plain
    assert re.search(r'<td data-label="[^"]+">', html)


def test_lesson_pages_alone_wrap_the_blocks_between_their_headings(built_site):
    """Lesson pages lay out only the blocks near the screen (celerylab.sitegen.lazy_sections); other pages not."""
    for prefix in ("", "en/"):
        html = (built_site / prefix / "lessons" / "90_fixture" / "index.html").read_text(encoding="utf-8")
        assert html.count('<div class="cl-lazy">') >= 1, prefix
        assert not re.search(r'<div class="cl-lazy">\s*<h[1-6]', html)
        for page in ("releases", "glossary", "lessons"):
            assert 'class="cl-lazy"' not in (built_site / prefix / page / "index.html").read_text(encoding="utf-8")


def test_no_script_blocks_a_page_for_what_it_may_never_show(built_site):
    """Mermaid's library is never a script tag (celerylab-mermaid.js fetches it when a diagram nears the screen),
    every script file is deferred (Material's bundle, the mermaid loader, celerylab.js: none holds the first paint),
    the inline script that holds back the search index comes before the bundle, lesson images load lazily, and no
    page asks for Google Fonts (theme.font: false)."""
    pages = list(built_site.rglob("*.html"))
    assert len(pages) >= 12
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not re.search(r'<script src="[^"]*mermaid-[0-9.]+\.min\.js"', html), page
        assert "fonts.googleapis.com" not in html and "fonts.gstatic.com" not in html, page
        scripts = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", html)
        assert scripts and [tag for tag in scripts if not re.search(r"\s(defer|async)\b", tag)] == [], page
        bundle = re.search(r'<script src="[^"]*/bundle\.[0-9a-f]+\.min\.js" defer>', html)
        assert bundle, page
        assert re.search(r"<script>\(function \(\) \{\s*var open = XMLHttpRequest[^<]*</script>$",
                         html[:bundle.start()]), page
        if "/celerylab.js" in html:
            assert re.search(r'<script src="[^"]*/celerylab\.js" defer>', html), page
        loader = re.search(r'<script src="[^"]*/celerylab-mermaid\.js" data-library="([^"]+)" defer>', html)
        assert bool(loader) == ('<pre class="mermaid">' in html), page
        if loader:
            assert (page.parent / loader.group(1)).resolve().is_file(), page
    for prefix in ("", "en/"):
        html = (built_site / prefix / "lessons" / "90_fixture" / "index.html").read_text(encoding="utf-8")
        images = re.findall(r"<img [^>]*>", html)
        assert images and all('loading="lazy"' in image for image in images), images


def test_the_theme_start_up_changes_are_made_before_the_first_paint(built_site):
    """Right after the palette script, at the top of <body> (before the article and the bundle), an inline script
    gives <html> the classes the bundle would, writes the color-scheme meta and stands in for the bundle's own
    (site/overrides/partials/javascripts/celerylab-startup.html): each of those, left to the bundle, restyled the
    whole page after its first paint."""
    for page in list(built_site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if 'data-md-component="palette"' not in html:
            continue
        palette = html.index('<script>var palette=__md_get("__palette")')
        startup = re.search(r'</script>\s*<script>\(function\(\)\{var root=document\.documentElement', html[palette:])
        assert startup, page
        at = palette + startup.start()
        assert at < html.index('<div class="md-container"') < html.index("/bundle."), page
        script = html[at:html.index("</script>", at + 10)]
        for change in ('classList.add("js","js-focus-visible")', 'scheme.name="color-scheme"', "head.appendChild=",
                       '"data-md-color-switching"'):
            assert change in script, (page, change)


def test_glossary_gathers_lesson_terms(built_site):
    html = (built_site / "glossary" / "index.html").read_text(encoding="utf-8")
    assert "Janela de visibilidade" in html and "Chave de idempotência" in html
    assert 'href="../lessons/90_fixture/"' in html


def test_no_generated_or_hook_file_leaks_into_the_site(built_site):
    assert not (built_site / "hooks.py").exists()
    assert not list(built_site.rglob("*.md"))
    assert not list(built_site.rglob("sitemap.xml"))


def _pages(site, prefix: str) -> set[str]:
    base = site / prefix if prefix else site
    return {page.relative_to(base).as_posix() for page in base.rglob("*.html")
            if prefix or not page.relative_to(site).as_posix().startswith("en/")} - {"404.html"}


def test_both_languages_have_the_same_pages(tmp_path):
    # The checkout as it is (not the fixture copy): every page under / has its twin under /en/, and back.
    site = tmp_path / "site_build"
    result = mkdocs_build(ROOT / "mkdocs.yml", site)
    assert result.returncode == 0, result.stdout + result.stderr
    pt, en = _pages(site, ""), _pages(site, "en")
    assert pt == en, {"only in /": sorted(pt - en), "only in /en/": sorted(en - pt)}
    assert {"index.html", "lessons/index.html", "glossary/index.html", "exercises/index.html"} <= pt
