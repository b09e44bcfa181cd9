"""Lighthouse (mobile) on the built site: accessibility and performance of four pages, light and dark palettes.

Run by hand: ``.venv/bin/python benchmarks/site_lighthouse.py [--site site_build] [--runs 3]``.
Needs Node.js and npm: Lighthouse 12.2.3 is installed once into ~/.cache/celerylab/lighthouse (Lighthouse 13
needs Node 22). The site is served as static hosts serve it, text gzipped; Chromium is /usr/bin/chromium.
Prints each page's median score per palette (targets: accessibility >= 95, performance >= 90).
"""
from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import statistics
import subprocess
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGES = ["/", "/lessons/01_retries/", "/en/lessons/01_retries/", "/releases/"]
LIGHTHOUSE = "lighthouse@12.2.3"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "celerylab" / "lighthouse"
PALETTES = {"light": "--blink-settings=preferredColorScheme=1", "dark": "--blink-settings=preferredColorScheme=0"}
COMPRESSIBLE = ("text/", "javascript", "json", "svg", "xml")


class GzipHandler(SimpleHTTPRequestHandler):
    """A static file server that gzips text, as static hosts do."""

    def log_message(self, *args) -> None:
        pass

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        kind = self.guess_type(path)
        if not os.path.isfile(path) or not any(k in kind for k in COMPRESSIBLE):
            return super().send_head()
        body = gzip.compress(Path(path).read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        import io

        return io.BytesIO(body)


def lighthouse_bin() -> Path:
    binary = CACHE / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "-E", LIGHTHOUSE],
                       check=True)
    return binary


def scores(binary: Path, url: str, palette: str) -> tuple[int, int]:
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        flags = f"--headless --no-sandbox {PALETTES[palette]}"
        subprocess.run([str(binary), url, "--quiet", "--only-categories=accessibility,performance",
                        f"--chrome-flags={flags}", "--output=json", f"--output-path={report}"],
                       check=True, env=dict(os.environ, CHROME_PATH="/usr/bin/chromium"), timeout=300)
        categories = json.loads(report.read_text())["categories"]
    return round(categories["accessibility"]["score"] * 100), round(categories["performance"]["score"] * 100)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="site_build", help="a built site folder (mkdocs build)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    binary = lighthouse_bin()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(GzipHandler, directory=args.site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_port}"
    try:
        for page in PAGES:
            for palette in PALETTES:
                runs = [scores(binary, base + page, palette) for _ in range(args.runs)]
                accessibility = statistics.median(a for a, _ in runs)
                performance = [p for _, p in runs]
                print(f"{page:28} {palette:5}  accessibility {accessibility:.0f}  performance median "
                      f"{statistics.median(performance):.0f} (min {min(performance)}, max {max(performance)})",
                      flush=True)
    finally:
        httpd.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
