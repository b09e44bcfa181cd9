"""MkDocs hooks: run `celerylab build --site` before each build, set the nav, load mermaid only where a diagram is
(each diagram followed by its text version), keep search and the switcher per language. The pages themselves are
plain Markdown written by celerylab.sitegen."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority

from celerylab.sitegen.diagram_text import with_text_versions
from celerylab.sitegen.lazy_sections import lazy_images, wrap_between_headings
from celerylab.sitegen.page_a11y import name_search_dialog
from celerylab.sitegen.pages import build_site_pages, site_nav
from celerylab.sitegen.search import split_search_index

CONFIG_SCRIPT = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)
# Material fetches <alternate>/sitemap.xml for every <link rel=alternate hreflang>; the i18n plugin points those
# at pages, not language roots, so each fetch is a 404. The language selector's own links already go to the
# same page in the other language, so the head links are dropped.
HEAD_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
# On home pages the i18n plugin writes the selector's links as "/" and "/en/": made relative, the site also
# works under a sub-path or opened from disk.
ROOTED_SWITCH = re.compile(r'(<a href=")/([^"]*)(" hreflang="[^"]*" class="md-select__link">)')
# A lesson page (lessons/NN_slug/, en/lessons/NN_slug/): its sections are laid out only near the screen.
LESSON_URL = re.compile(r"^(?:[a-z]{2}/)?lessons/[0-9]{2}_[^/]+/$")
# Mermaid (3.5 MB) only on pages holding a diagram: before Material's bundle, celerylab-mermaid.js sets the global
# `mermaid` Material draws with; it fetches the library (its data-library) when a diagram nears the screen.
BUNDLE = re.compile(r'<script src="([^"]*)assets/javascripts/bundle\.[0-9a-f]+\.min\.js">')
# Material's bundle and the mermaid loader are deferred: the browser paints the parsed page before they run (they
# already sat at the end of <body>, but as parser-blocking scripts of high priority, which Lighthouse counts as
# holding the first paint). Deferred scripts run in document order, so the loader still runs before the bundle.
# Before them, inline (assets/javascripts/celerylab-search.js, not shipped as a file): the search index is fetched when the reader reaches for
# search, not at every page load.
SEARCH_ON_DEMAND = Path(__file__).parent / "assets" / "javascripts" / "celerylab-search.js"
MERMAID_LOADER = "assets/javascripts/celerylab-mermaid.js"
MERMAID_LIBRARY = "assets/javascripts/mermaid-11.17.2.min.js"
# 404.html is served at any missing path, so its links cannot be relative to where it sits. They are made
# relative to a <base> that an inline script sets first: the site root a page of this site last recorded
# (celerylab.js), else the longest prefix of the path that holds the site's own script, else site_url's path or "/".
ROOTED_ATTR = re.compile(r'((?:href|src)=")/(?!/)')
NOT_FOUND_BASE = (
    '<script>(function(){{var b;try{{b=localStorage.getItem("celerylab-base")}}catch(e){{}}'
    # A first visit has nothing recorded: find the root among the path's prefixes by asking for a file of the site.
    'if(!b){{var s=location.pathname.split("/").slice(1,-1);for(var i=s.length;i>=0;i--){{'
    'var p="/"+s.slice(0,i).join("/")+(i?"/":"");try{{var x=new XMLHttpRequest();'
    'x.open("HEAD",p+"assets/javascripts/celerylab.js",false);x.send();if(x.status===200){{b=p;break}}}}catch(e){{}}}}}}'
    'document.write(\'<base href="\'+(b||{fallback})+\'">\')}})()</script>')
_pages = None
_not_found_page: str | None = None


def _i18n(config):
    return config.plugins.get("i18n")


def _language(config) -> str:
    plugin = _i18n(config)
    return plugin.current_language if plugin and plugin.current_language else "pt"


@event_priority(100)
def on_config(config):
    """Before anything reads docs_dir: convert the notebooks (once, in the outer build)."""
    global _pages
    plugin = _i18n(config)
    if _pages is None or not (plugin and plugin.building):
        _pages = build_site_pages(Path(config.config_file_path).parent)
    return config


def on_serve(server, config, builder):
    """`mkdocs serve` also rebuilds when a lesson notebook or the course order changes."""
    root = Path(config.config_file_path).parent
    for path in (root / "notebooks", root / "src" / "celerylab" / "course.yml"):
        if path.exists():
            server.watch(str(path))
    return server


def on_pre_build(config):
    """The nav of the language being built (the i18n plugin has picked it by now)."""
    config.nav = site_nav(_pages, _language(config))


def on_page_markdown(markdown, page, config, files):
    """Each diagram is followed by its text version (a list a phone reads without scrolling sideways)."""
    return with_text_versions(markdown, _language(config))


def on_post_page(output, page, config):
    """Drop head alternates, name the search dialog, lesson sections laid out near the screen only, relative
    switch links; for non-default languages, Material's `base` at the language root."""
    output = name_search_dialog(HEAD_ALTERNATE.sub("", output))
    if LESSON_URL.match(page.url):
        output = lazy_images(wrap_between_headings(output))
    if 'class="mermaid"' in output:
        output = BUNDLE.sub(lambda m: f'<script src="{m.group(1)}{MERMAID_LOADER}" '
                            f'data-library="{m.group(1)}{MERMAID_LIBRARY}" defer></script>' + m.group(0),
                            output, count=1)
    output = _deferred_bundle(output)
    up = "../" * page.url.count("/")
    output = ROOTED_SWITCH.sub(lambda m: f"{m.group(1)}{(up + m.group(2)) or './'}{m.group(3)}", output)
    plugin = _i18n(config)
    if not plugin or plugin.current_language == plugin.default_language:
        return output

    def rebase(match: re.Match) -> str:
        data = json.loads(match.group(2))
        data["base"] = f"{data['base'].rstrip('/')}/{plugin.current_language}/"
        return match.group(1) + json.dumps(data) + match.group(3)

    return CONFIG_SCRIPT.sub(rebase, output, count=1)


def _deferred_bundle(output: str) -> str:
    """Material's bundle deferred, after the inline script that holds back the search index until it is wanted."""
    code = re.sub(r"^/\*.*?\*/\s*", "", SEARCH_ON_DEMAND.read_text(encoding="utf-8"), count=1, flags=re.DOTALL)
    script = f"<script>{code.strip()}</script>"
    return BUNDLE.sub(lambda m: script + m.group(0)[:-1] + " defer>", output, count=1)


def _not_found(output: str, config) -> str:
    """The 404 page: every rooted link relative to a <base> set at view time, Material's base included."""
    fallback = json.dumps(urlsplit(config.site_url or "/").path or "/")
    output = ROOTED_ATTR.sub(r"\1", output).replace('href=""', 'href="./"')
    output = output.replace("<head>", "<head>" + NOT_FOUND_BASE.format(fallback=fallback), 1)

    # Material resolves its base (search index, worker) against the address, not the <base>: make it absolute.
    absolute = ('<script>(function(){var c=document.getElementById("__config"),d=JSON.parse(c.textContent);'
                'd.base=document.baseURI;d.search=new URL(d.search,document.baseURI).href;'
                'c.textContent=JSON.stringify(d)})()</script>')
    return BUNDLE.sub(lambda m: absolute + m.group(0), output, count=1)


def on_post_template(output: str, template_name: str, config):
    """404.html: rendered in the default language's frame (its text is bilingual), its links sub-path proof."""
    global _not_found_page
    if template_name != "404.html":
        return output
    plugin = _i18n(config)
    if plugin and plugin.current_language != plugin.default_language and _not_found_page:
        return _not_found_page  # the i18n plugin renders it again for each language, over the same file
    _not_found_page = _deferred_bundle(_not_found(HEAD_ALTERNATE.sub("", output), config))
    return _not_found_page


@event_priority(-200)
def on_post_build(config):
    """After the i18n plugin merged every language into one index, split it back per language."""
    plugin = _i18n(config)
    if plugin and not plugin.building:
        site_dir = Path(config.site_dir)
        split_search_index(site_dir, plugin.default_language, list(plugin.build_languages))
        if not config.site_url:  # without a site_url every <loc> reads "None/...": useless, so not shipped
            for name in ("sitemap.xml", "sitemap.xml.gz"):
                for path in site_dir.rglob(name):
                    path.unlink()
