"""Check a built site offline: every internal link and anchor resolves, and no page loads anything from outside."""
from __future__ import annotations

import posixpath
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from celerylab.i18n import t

# (tag, attribute) pairs the browser fetches while showing the page, versus links a reader may follow.
LOADED = {("script", "src"), ("img", "src"), ("iframe", "src"), ("source", "src"), ("link", "href")}
FOLLOWED = {("a", "href")}
NOT_LOADED_RELS = {"alternate", "canonical", "next", "prev"}
SKIPPED_SCHEMES = ("mailto:", "javascript:", "data:", "tel:")


class _Refs(HTMLParser):
    """The ids a page defines and the (kind, url) references it makes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        for key in ("id", "name"):
            if attributes.get(key) and (key == "id" or tag == "a"):
                self.ids.add(attributes[key])
        for attribute in ("href", "src"):
            url = attributes.get(attribute)
            if url is None:
                continue
            rels = set((attributes.get("rel") or "").split())
            if (tag, attribute) in LOADED and not (tag == "link" and rels & NOT_LOADED_RELS):
                self.refs.append(("loaded", url))
            elif (tag, attribute) in FOLLOWED or tag == "link":
                self.refs.append(("followed", url))


@lru_cache(maxsize=None)
def _parse(path: Path) -> _Refs:
    parser = _Refs()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return parser


def _target(site: Path, page: Path, path: str) -> Path:
    """The file a same-site URL path points to, from `page`."""
    folder = "/" + page.parent.relative_to(site).as_posix()
    absolute = posixpath.normpath(posixpath.join(folder, unquote(path)))
    target = site / absolute.lstrip("/")
    if path.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target


def check_site(site_dir: str | Path, lang: str | None = None) -> list[str]:
    """Problems found in the built site at `site_dir` (empty when every link, anchor and resource is local and exists)."""
    site = Path(site_dir).resolve()
    _parse.cache_clear()
    problems: list[str] = []
    for page in sorted(site.rglob("*.html")):
        name = page.relative_to(site).as_posix()
        for kind, url in _parse(page).refs:
            if url.startswith(SKIPPED_SCHEMES) or url == "#":
                continue
            parts = urlsplit(url)
            if parts.scheme or url.startswith("//"):
                if kind == "loaded":
                    problems.append(t("site.links.external", lang, page=name, target=url))
                continue
            if url.startswith("/") and name != "404.html":  # 404.html is served at any path: mkdocs roots it
                problems.append(t("site.links.rooted", lang, page=name, target=url))
                continue
            target = _target(site, page, parts.path) if parts.path else page
            if not target.is_file():
                problems.append(t("site.links.missing", lang, page=name, target=url))
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _parse(target).ids:
                problems.append(t("site.links.anchor", lang, page=name, target=url))
    return problems
