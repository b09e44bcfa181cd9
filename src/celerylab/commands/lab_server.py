"""JupyterLab's server with the course's Portuguese for the strings the pt-BR language pack lacks.

The pinned pack (jupyterlab-language-pack-pt-BR 4.5) predates JupyterLab 4.6, so some menu items
stayed in English. jupyterlab_server's own way to add strings (a ``jupyterlab.locale`` entry point)
fails on that pack: its version field, "jupyterlab", is not a version ``packaging`` can parse. So the
translations handler gets the pack's data with the course's strings added where the pack has none,
and the server's gettext (menu titles in settings schemas) falls back to the same strings.
"""
from __future__ import annotations

import gettext
import json
from pathlib import Path

STRINGS = {"pt_BR": Path(__file__).with_name("lab_settings") / "strings.pt.json"}
DOMAIN = "jupyterlab"


def course_strings(locale: str) -> dict[str, list[str]]:
    """The course's strings for `locale` in the pack's format (msgid -> [singular, plural...])."""
    path = STRINGS.get(locale)
    if path is None:
        return {}
    given = json.loads(path.read_text(encoding="utf-8"))
    return {msgid: text if isinstance(text, list) else [text] for msgid, text in given.items()}


def with_course_strings(locale: str, data: dict) -> dict:
    """The language pack `data` with the course's strings for `locale`; the pack's own translations win."""
    extra = course_strings(locale)
    if not extra or DOMAIN not in data:
        return data
    return {**data, DOMAIN: {**extra, **data[DOMAIN]}}


class CourseCatalog(gettext.NullTranslations):
    """A gettext fallback holding the course's strings for one locale."""

    def __init__(self, strings: dict[str, list[str]]):
        super().__init__()
        self.strings = strings

    def gettext(self, message: str) -> str:
        return self.strings.get(message, [message])[0]

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.strings.get(singular)
        if forms is None:
            return singular if n == 1 else plural
        return forms[0] if n == 1 else forms[-1]

    def pgettext(self, context: str, message: str) -> str:  # schema strings come with a context
        return self.gettext(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


def install() -> None:
    """Serve every language pack through `with_course_strings`; the server's gettext falls back to them."""
    from jupyterlab_server import translation_utils, translations_handler

    original_pack = translations_handler.get_language_pack

    def get_language_pack(locale: str):
        data, message = original_pack(locale)
        return with_course_strings(locale, data), message

    translations_handler.get_language_pack = get_language_pack
    original_update = translation_utils.TranslationBundle.update_locale

    def update_locale(bundle, locale: str) -> None:
        original_update(bundle, locale)
        strings = course_strings(locale) if bundle._domain == DOMAIN else {}
        if strings:
            bundle._translator.add_fallback(CourseCatalog(strings))

    translation_utils.TranslationBundle.update_locale = update_locale


def main() -> None:
    install()
    from jupyterlab.labapp import main as lab_main

    lab_main()


if __name__ == "__main__":
    main()
