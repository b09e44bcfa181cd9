"""The built site's search index is split per language, and the link check finds broken and external references."""
from __future__ import annotations

import json

from celerylab.sitegen.links import check_site
from celerylab.sitegen.search import split_search_index


def test_search_index_split_per_language(tmp_path):
    merged = {"config": {"lang": ["pt", "en"]}, "docs": [
        {"location": "", "title": "Início", "text": ""},
        {"location": "lessons/01_x/", "title": "Lição", "text": "<p>Use <code>acks_late</code></p><pre><code>x = 1</code></pre>"},
        {"location": "en/", "title": "Home", "text": ""},
        {"location": "en/lessons/01_x/#top", "title": "Lesson", "text": ""},
    ]}
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(merged))
    assert split_search_index(tmp_path, "pt", ["pt", "en"]) == {"pt": 2, "en": 2}
    pt = json.loads((tmp_path / "search" / "search_index.json").read_text())
    en = json.loads((tmp_path / "en" / "search" / "search_index.json").read_text())
    assert [d["location"] for d in pt["docs"]] == ["", "lessons/01_x/"] and pt["config"]["lang"] == ["pt"]
    assert pt["docs"][0]["folded"] == "inicio" and pt["config"]["fields"]["folded"] == {"boost": 1.0}
    assert pt["docs"][1]["text"].strip() == "<p>Use <code>acks_late</code></p>"  # code blocks are not indexed
    assert [d["location"] for d in en["docs"]] == ["", "lessons/01_x/#top"] and en["config"]["lang"] == ["en"]
    assert split_search_index(tmp_path, "pt", ["pt", "en"]) == {}  # already split: left alone
    assert json.loads((tmp_path / "en" / "search" / "search_index.json").read_text()) == en


def test_link_check(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<h2 id="here">x</h2><a href="../b/">b</a><a href="#here">ok</a><a href="../b/#nope">bad anchor</a>'
        '<a href="../missing/">missing</a><a href="https://docs.celeryq.dev/">fine to follow</a>'
        '<script src="https://unpkg.com/x.js"></script><img src="pic.png"><link rel="stylesheet" href="../s.css"><a href="/b/">rooted</a>')
    (tmp_path / "a" / "pic.png").write_bytes(b"")
    (tmp_path / "s.css").write_text("")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<a href="../a/#here">back</a>')
    problems = check_site(tmp_path, lang="en")
    assert problems == [
        "a/index.html: missing anchor ../b/#nope",
        "a/index.html: broken link to ../missing/",
        "a/index.html: resource loaded from outside the site: https://unpkg.com/x.js",
        "a/index.html: link from the server root (breaks under a sub-path or opened from disk): /b/",
    ]
