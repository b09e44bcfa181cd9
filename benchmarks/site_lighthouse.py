"""Lighthouse (mobile) on the built site: accessibility and performance of four pages, light and dark palettes.

Run by hand: ``.venv/bin/python benchmarks/site_lighthouse.py [--site site_build] [--runs 3] [--pages / ...]
[--lessons] [--against OTHER_SITE] [--reports DIR]``; ``--lessons`` scores every lesson page of the built site (pt
and en), ``--against`` runs another build (say, before a change) alternately with it, run for run, so both see the
same load; ``--reports`` keeps each run's JSON report there.
Needs Node.js and npm: Lighthouse 12.2.3 is installed once into ~/.cache/celerylab/lighthouse (Lighthouse 13
needs Node 22). The site is served as static hosts serve it, text gzipped; Chromium is /usr/bin/chromium.
Prints each page's median score per palette (targets: accessibility >= 95, performance >= 90), the load average
before each run, and the median run's metrics and the audits that cost it (LCP element, DOM size, main-thread work,
transfer size, unused JavaScript, render-blocking resources).
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


def lesson_pages(site: Path) -> list[str]:
    """Every lesson page of a built site, Portuguese then English (lessons/NN_slug/ and en/lessons/NN_slug/)."""
    return [f"/{index.parent.relative_to(site).as_posix()}/"
            for folder in (site / "lessons", site / "en" / "lessons")
            for index in sorted(folder.glob("[0-9][0-9]_*/index.html"))]


def lighthouse_bin() -> Path:
    binary = CACHE / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "-E", LIGHTHOUSE],
                       check=True)
    return binary


def run_lighthouse(binary: Path, url: str, palette: str, keep: Path | None = None) -> dict:
    """One Lighthouse run's JSON report (also saved as `keep` when given)."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        flags = f"--headless --no-sandbox {PALETTES[palette]}"
        subprocess.run([str(binary), url, "--quiet", "--only-categories=accessibility,performance",
                        f"--chrome-flags={flags}", "--output=json", f"--output-path={report}"],
                       check=True, env=dict(os.environ, CHROME_PATH="/usr/bin/chromium"), timeout=300)
        if keep:
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_bytes(report.read_bytes())
        return json.loads(report.read_text())


def scores(report: dict) -> tuple[int, int]:
    categories = report["categories"]
    return round(categories["accessibility"]["score"] * 100), round(categories["performance"]["score"] * 100)


def _value(report: dict, audit: str) -> str:
    return report["audits"].get(audit, {}).get("displayValue", "-")


def costs(report: dict) -> str:
    """The metrics and the audits that say where a run's time went."""
    audits = report["audits"]
    metrics = "  ".join(f"{name} {_value(report, audit)}" for name, audit in (
        ("FCP", "first-contentful-paint"), ("LCP", "largest-contentful-paint"), ("TBT", "total-blocking-time"),
        ("CLS", "cumulative-layout-shift"), ("SI", "speed-index")))
    lines = [metrics]
    element = audits.get("largest-contentful-paint-element", {}).get("details", {}).get("items", [])
    if element and element[0].get("items"):
        node = element[0]["items"][0].get("node", {})
        lines.append(f"LCP element: {node.get('selector', '?')} {node.get('snippet', '')[:80]}")
    for audit in ("largest-contentful-paint-element", "dom-size", "mainthread-work-breakdown", "bootup-time",
                  "long-tasks", "total-byte-weight", "unused-javascript", "render-blocking-resources", "font-display",
                  "layout-shifts"):
        if audits.get(audit, {}).get("scoreDisplayMode") == "error":
            # Lighthouse 12.2.3 cannot read some traces of newer Chromium (e.g. 156: "frame_sequence").
            lines.append(f"{audit}: not measured ({audits[audit].get('errorMessage', '')[:70]})")
        elif audit in audits and audit != "largest-contentful-paint-element":
            items = audits[audit].get("details", {}).get("items", [])
            top = ", ".join(_item(item) for item in items[:4])
            lines.append(f"{audit}: {audits[audit].get('displayValue', '')} {top}".rstrip())
    return "\n    ".join(lines)


def _item(item: dict) -> str:
    label = item.get("url") or item.get("groupLabel") or item.get("statistic") or item.get("node", {}).get("selector")
    label = str(label).rsplit("/", 2)[-1] if label else "?"
    for key in ("duration", "total", "wastedBytes", "totalBytes", "wastedMs", "score", "value"):
        if isinstance(item.get(key), (int, float)):
            return f"{label}={item[key]:.0f}" if item[key] >= 1 else f"{label}={item[key]:.3f}"
        if isinstance(item.get(key), dict) and "value" in item[key]:
            return f"{label}={item[key]['value']}"
    return label


def serve(site: str) -> tuple[ThreadingHTTPServer, str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(GzipHandler, directory=site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_port}"


def summary(page: str, palette: str, label: str, reports: list[dict], loads: list[float]) -> str:
    """One line per page, palette and site: median scores, spread, the load averages of its runs, its costs."""
    runs = [scores(report) for report in reports]
    accessibility = statistics.median(a for a, _ in runs)
    performance = [p for _, p in runs]
    median = sorted(zip(performance, range(len(reports))))[len(reports) // 2][1]
    return (f"{page:28} {palette:5} {label}accessibility {accessibility:.0f}  performance median "
            f"{statistics.median(performance):.0f} (min {min(performance)}, max {max(performance)})"
            f"  load {'/'.join(f'{load:.1f}' for load in loads)}\n    {costs(reports[median])}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="site_build", help="a built site folder (mkdocs build)")
    parser.add_argument("--against", help="another built site (e.g. before a change), run alternately with --site "
                        "under the same load")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", nargs="+", help=f"paths under the site root (default {' '.join(PAGES)}, "
                        "or none with --lessons)")
    parser.add_argument("--lessons", action="store_true",
                        help="every lesson page of the built site, pt and en (after --pages)")
    parser.add_argument("--palettes", nargs="+", default=list(PALETTES), choices=list(PALETTES))
    parser.add_argument("--reports", type=Path, help="a folder to keep every run's JSON report in")
    args = parser.parse_args()
    pages = args.pages or ([] if args.lessons else PAGES)
    pages += [page for page in lesson_pages(Path(args.site)) if args.lessons and page not in pages]
    binary = lighthouse_bin()
    sites = {"": args.site} if not args.against else {"against ": args.against, "site    ": args.site}
    servers = {label: serve(folder) for label, folder in sites.items()}
    try:
        for page in pages:
            for palette in args.palettes:
                name = page.strip("/").replace("/", "_") or "home"
                reports: dict[str, list[dict]] = {label: [] for label in sites}
                loads: dict[str, list[float]] = {label: [] for label in sites}
                for n in range(args.runs):
                    for label, (_, base) in servers.items():  # alternately: both sites see the same load
                        loads[label].append(os.getloadavg()[0])
                        keep = args.reports / f"{label.strip() or 'site'}-{name}-{palette}-{n}.json" if args.reports else None
                        reports[label].append(run_lighthouse(binary, base + page, palette, keep))
                for label in sites:
                    print(summary(page, palette, label, reports[label], loads[label]), flush=True)
    finally:
        for httpd, _ in servers.values():
            httpd.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
