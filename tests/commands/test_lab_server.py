"""The lab server adds the course's Portuguese to JupyterLab's pt-BR pack without overriding the pack."""
from __future__ import annotations

import gettext

from celerylab.commands import lab_server


def test_the_course_strings_fill_only_what_the_pack_lacks():
    pack = {"jupyterlab": {"": {"domain": "jupyterlab"}, "Modified": ["Alterado"]}, "other": {"x": ["y"]}}
    merged = lab_server.with_course_strings("pt_BR", pack)
    assert merged["jupyterlab"]["Modified"] == ["Alterado"]  # the pack's own translation wins
    assert merged["jupyterlab"]["Cut Cell"] == ["Recortar a célula", "Recortar as células"]
    assert merged["other"] == {"x": ["y"]} and lab_server.with_course_strings("fr_FR", pack) == pack


def test_gettext_falls_back_to_the_course_strings_with_and_without_a_context():
    translations = gettext.NullTranslations()
    translations.add_fallback(lab_server.CourseCatalog(lab_server.course_strings("pt_BR")))
    assert translations.gettext("Workspaces") == "Espaços de trabalho"
    assert translations.pgettext("schema", "Workspaces") == "Espaços de trabalho"
    assert translations.ngettext("Cut Cell", "Cut Cells", 2) == "Recortar as células"
    assert translations.gettext("Not a course string") == "Not a course string"


def test_every_course_string_is_portuguese_text():
    strings = lab_server.course_strings("pt_BR")
    assert len(strings) > 40
    assert all(forms and all(form.strip() and form != msgid for form in forms)
               for msgid, forms in strings.items() if msgid != " and ")
