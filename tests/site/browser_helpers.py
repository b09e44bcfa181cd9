"""Helpers for the browser test: a static server (also under /sub/, with the 404 page), page weight and contrast."""
from __future__ import annotations

import gzip
import os
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

from site_helpers import ROOT

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = ROOT / "build" / "screenshots"
WEIGHTS = ROOT / "build" / "site-weights.txt"
# Material renders each diagram into a closed shadow root; opening it lets the test measure the real <svg>.
OPEN_SHADOWS = ("const attach = Element.prototype.attachShadow;"
                "Element.prototype.attachShadow = function (init) { return attach.call(this, {...init, mode: 'open'}); };")


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves the built site at / and again under /sub/; a missing file gets 404.html, as static hosts do."""

    def log_message(self, *args) -> None:
        pass

    def translate_path(self, path: str) -> str:
        if path.startswith("/sub/") or path == "/sub":
            path = path[4:] or "/"
        return super().translate_path(path)

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.exists(path) and not self.path.split("?")[0].endswith("/sub"):
            body = (Path(self.directory) / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command == "HEAD":
                return None
            self.wfile.write(body)
            return None
        return super().send_head()


COMPRESSIBLE = ("text/", "javascript", "json", "svg", "xml")


def page_weight(context, url: str, drawn: str | None = None) -> tuple[int, int]:
    """(transferred, raw) bytes of a first visit to `url` (cache off), the search worker's fetches included; with
    `drawn`, once an element it selects exists (a diagram drawn) and the network is quiet again.

    `transferred` is what a host that compresses text (gzip, as static hosts do) sends:
    text, scripts, styles and JSON gzipped, images as they are; `raw` is the uncompressed sum.
    """
    tab = context.new_page()
    session = context.new_cdp_session(tab)
    session.send("Network.enable")
    session.send("Network.setCacheDisabled", {"cacheDisabled": True})
    finished: list = []
    tab.on("requestfinished", lambda request: finished.append(request))
    tab.goto(url, wait_until="networkidle")
    if drawn:
        tab.wait_for_selector(drawn, state="attached", timeout=60_000)
        tab.wait_for_load_state("networkidle")
    transferred = raw = 0
    for request in finished:
        response = request.response()
        body = response.body() if response is not None else b""
        kind = (response.headers.get("content-type", "") if response is not None else "")
        raw += len(body)
        transferred += len(gzip.compress(body, 6)) if any(k in kind for k in COMPRESSIBLE) else len(body)
    tab.close()
    return transferred, raw


# Contrast (WCAG 2.x) of the theme colours as the browser applies them: links, headings, the header bar.
CONTRAST_JS = """() => {
  const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const lin = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  const lum = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3])).concat(1);
  const background = el => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const ratio = el => {
    const bg = background(el), fg = over(rgba(getComputedStyle(el).color), bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  };
  const out = {};
  const pick = (name, selector) => { const el = document.querySelector(selector); if (el) out[name] = ratio(el); };
  pick("link", ".md-content a:not(.headerlink):not(.md-content__button)");
  pick("h1", ".md-content h1");
  pick("h2", ".md-content h2");
  pick("header", ".md-header__topic");
  pick("nav active", ".md-nav__link--active");
  return out;
}"""
