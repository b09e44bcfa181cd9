"""The full address of a rule's lesson section: the site's base (option, environment, published site, local site) and its path."""
from __future__ import annotations

import os

from celerylab.rule_lessons import lesson_url

# One base for every link. The site serves Portuguese at its root and English under en/, lesson pages at
# lessons/NN_slug/; a deployment with a known host sets this to "https://host/" and every link follows.
SITE_BASE_URL = ""
ENV = "CELERYLAB_SITE_URL"
LOCAL_SITE = "http://127.0.0.1:8000/"  # where `mkdocs serve` shows the course's site (README, "The site")
chosen: str | None = None  # `--site-url` of this run


def base() -> str:
    """`--site-url`, else $CELERYLAB_SITE_URL, else the course's published site (none yet), else the local site."""
    found = chosen or os.environ.get(ENV) or SITE_BASE_URL or LOCAL_SITE
    return found if found.endswith("/") else found + "/"


def lesson_link(rule_id: str, lang: str = "pt") -> str:
    """The full address of the lesson section that shows `rule_id` live ("" when no lesson does)."""
    path = lesson_url(rule_id, lang)
    return base() + path if path else ""
