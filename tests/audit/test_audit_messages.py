"""What findings say: the diagnosis where a name was mistaken, no placeholder where nothing is close, the right why."""
from __future__ import annotations

import pytest
from audit_helpers import pairs

from celerylab import cli
from celerylab.audit import format_text, site
from celerylab.audit.site import lesson_link
from celerylab.i18n import set_lang


def messages(report) -> dict:
    return {(f.rule.id, f.subject): f for f in report.findings}


def test_a_task_property_name_is_no_task_attribute_but_a_misspelled_setting(audit_app):
    """`celery_backend`: Task.backend is a property; CL102 would print `<property object ...>`."""
    found = messages(audit_app("cl102_property"))
    assert ("CL102", "celery_backend") not in found
    assert "the closest one: `result_backend`" in found[("CL101", "celery_backend")].message
    assert "property object" not in format_text.render(audit_app("cl102_property"))


def test_nothing_close_says_so_instead_of_a_dash(audit_app):
    [finding] = audit_app("cl101_far").findings
    assert finding.message == "`zzqx_wibble` is not a Celery setting, and no setting has a name close to it"


def test_a_django_settings_module_without_namespace_offers_only_celery_looking_keys(audit_app):
    """19 Django settings and one CELERY_ key read without namespace="CELERY": one CL101, with the real diagnosis."""
    report = audit_app("django_plain")
    assert {subject for rule, subject in pairs(report.findings) if rule == "CL101"} == {"CELERY_BROKER_URL"}
    finding = messages(report)[("CL101", "CELERY_BROKER_URL")]
    assert "without `namespace=\"CELERY\"`" in finding.message and "`broker_url`" in finding.message
    assert "namespace=\\\"CELERY\\\"" not in finding.fix and 'namespace="CELERY"' in finding.fix
    assert (finding.hit.file, finding.hit.line) == ("audit_apps/django_plain_settings.py", 20)


def test_undeclared_queues_name_the_declared_list(audit_app):
    finding = messages(audit_app("cl701"))[("CL701", "cl701.export")]
    assert finding.message == ("`cl701.export` sends to queue `exports`, which `task_queues` does not declare "
                               "(the declared ones: celery, search)")


def test_the_why_of_retries_without_jitter_is_about_jitter(audit_app):
    found = messages(audit_app("cl305"))
    jitter, fixed = found[("CL305", "cl305.no_jitter")], found[("CL305", "cl305.no_delay_set")]
    assert jitter.message == "`cl305.no_jitter`: retry_backoff without jitter (retry_jitter = False)"
    assert "without jitter every task that failed together comes back together" in jitter.why
    assert "without backoff" not in jitter.why and "retry_jitter=False" in jitter.fix
    assert fixed.why.startswith("without backoff every failure comes back at the same interval")


def test_one_finding_per_app_for_tasks_without_a_name(audit_app):
    [finding] = audit_app("cl109").findings
    assert finding.message == "tasks with no `name=` in their decorator (1): audit_apps.cl109.unnamed"
    assert (finding.hit.file, finding.hit.line) == ("audit_apps/cl109.py", 7)


def test_a_limit_is_no_evidence_of_a_long_task(audit_app):
    report = audit_app("cl404")
    [undecided] = report.unknown
    assert report.findings == [] and undecided.rule.id == "CL404" and "only their real run times" in undecided.message


@pytest.mark.parametrize("lang, summary", [("en", "1 finding (1 critical); 0 undecided; 0 suppressed"),
                                           ("pt", "1 achado (1 crítica); 0 não decididos; 0 suprimidos")])
def test_counts_agree_with_one(audit_app, lang, summary):
    set_lang(lang)
    text = format_text.render(audit_app("cl107"))
    assert text.splitlines()[-1] == summary


def test_the_lesson_link_is_a_full_url_from_a_configurable_base(monkeypatch, capsys):
    monkeypatch.setattr(site, "chosen", None)
    monkeypatch.delenv(site.ENV, raising=False)
    assert lesson_link("CL107", "en") == "http://127.0.0.1:8000/en/lessons/03_silent_defects/#why-not-pickle"
    monkeypatch.setenv(site.ENV, "https://celery.example/course")
    assert lesson_link("CL107", "pt") == "https://celery.example/course/lessons/03_silent_defects/#por-que-nao-pickle"
    from audit_helpers import HERE

    cli.main(["audit", "-A", "audit_apps.cl107", "--path", str(HERE), "--lang", "en",
              "--site-url", "https://docs.example/"])
    out = capsys.readouterr().out
    assert "    lesson: https://docs.example/en/lessons/03_silent_defects/#why-not-pickle" in out
    assert "live:" not in out
    set_lang("pt")


def test_a_frameworks_config_given_to_conf_update_offers_only_celery_looking_keys(audit_app):
    """Eight Flask keys and CELERY_BROKER_URL through conf.update: one CL101, and no CL117 for the module variable
    (it did reach app.conf, under a name Celery does not read)."""
    report = audit_app("flask_update")
    assert pairs(report.findings) == {("CL101", "CELERY_BROKER_URL")}
