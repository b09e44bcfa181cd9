"""One small app per rule: the audit reports exactly that rule's findings, and the clean app nothing at all."""
from __future__ import annotations

import sys

import pytest
from audit_helpers import pairs

from celerylab.audit.registry import all_rules

EXPECTED = {
    "clean": set(),
    "cl101_typo": {("CL101", "task_acks_lat")},
    "cl101_transport": {("CL101", "broker_visibility_timeout")},
    "cl101_flask": {("CL101", "CELERY_TASK_ROUTES"), ("CL101", "CELERY_TASK_ACKS_LAT")},
    "cl101_own_switch": {("CL101", "task_acks_lat")},
    "cl101_own_constant": {("CL101", "task_acks_lat")},
    "cl101_undeclared": {("CL101", "result_backend_thread_saf")},
    # CELERY_MAILER_BACKEND and _CHUNK_SIZE are read by an installed library (by name, by its appconf prefix)
    "cl101_library": {("CL101", "CELERY_MAILER_CHUNK_SIZ"), ("CL101", "result_expire")},
    # CELERY_BEAT_TOUCH_FILE is read by the package's Beat scheduler, a module loading the app does not import
    "audit_apps.pkg_unloaded.celery": {("CL101", "task_acks_lat")},
    "cl102": {("CL102", "task_max_retries")},
    "cl103": {("CL103", "cl103.declared")},
    "cl104": {("CL104", "backup")},
    "cl105": {("CL105", "cl105.reindex"), ("CL105", "cl105.old.export")},
    "cl106": {("CL106", "cl106.sendmail"), ("CL106", "cl106.*")},
    "cl107": {("CL107", "accept_content")},
    "cl107_decoder": {("CL107", "accept_content:json")},
    "cl107_decoder_ok": set(),
    "cl108": {("CL108", "result_serializer"), ("CL108", "cl108.work"),   # and json-only accept refuses both:
              ("CL119", "result_serializer"), ("CL119", "cl108.work.serializer")},
    "cl108_library": {("CL108", "cl108lib.own"), ("CL119", "cl108lib.own.serializer")},
    "cl108_no_backend": set(),
    "cl109": {("CL109", "name")},
    "cl110": {("CL110", "task_always_eager")},
    "cl111": {("CL111", "audit_apps.celeryconfg")},
    "cl111_empty": {("CL111", "audit_apps.web_settings"), ("CL201", "task_time_limit"), ("CL503", "result_backend")},
    "cl112": {("CL112", "broker_url")},
    "cl112_literal": {("CL112", "broker_url")},
    "cl112_word": set(),
    "cl113": {("CL113", "cl113.move(point)"), ("CL113", "cl113.move(tags)"), ("CL113", "cl113.move(pair)"),
              ("CL113", "cl113.tags(return)")},
    "cl115": set(),
    "cl113_contradicted": {("CL113", "cl113c.as_object(user)")},
    "cl113_pydantic": {("CL113", "cl113p.unchecked(order)")},
    "cl113_typeddict": {("CL113", "cl113t.tagged(item)")},
    "cl116": {("CL116", "include:audit_l03.shop")},
    "cl116_ok": set(),
    "cl116_string": {("CL116", "include:audit_l03.shop")},
    "cl116_string_ok": set(),
    "cl117": {("CL117", "audit_apps/cl117.py:CELERY_BEAT_SCHEDULE")},
    "cl118": {("CL118", "result_backend")},
    "cl118_transport": {("CL118", "broker_url")},
    "cl119": {("CL119", "task_serializer"), ("CL119", "cl119.odd.serializer")},
    "cl201": {("CL201", "task_time_limit")},
    "cl202": {("CL202", "cl202.export")},
    "cl203": {("CL201", "task_time_limit"), ("CL203", "cl203.stream.time_limit"),
              ("CL203", "cl203.stream.soft_time_limit")},
    "cl204": {("CL204", "worker_pool")},
    "cl205": {("CL205", "cl205.export:14"), ("CL205", "cl205.loops:54")},
    "cl301": {("CL301", "cl301.welcome")},
    "cl302": {("CL302", "cl302.auto"), ("CL302", "cl302.by_hand"), ("CL302", "cl302.unbounded_in_body")},
    "cl303": {("CL303", "cl303.hammer")},
    "cl304": {("CL304", "cl304.fractional")},
    "cl305": {("CL305", "cl305.no_delay_set"), ("CL305", "cl305.no_jitter")},
    "cl306": {("CL306", "cl306.kwargs_and_backoff")},
    "cl307": {("CL307", "audit_apps/cl307.py:28")},
    "cl307_rollback": {("CL307", "audit_apps/cl307_rollback.py:25")},
    "cl307_last": {("CL307", "audit_apps/cl307_last.py:29")},
    "cl308": {("CL308", "cl308.notes_manual_retry:19")},
    "cl401": {("CL401", "cl401.export")},
    "cl401_configured": {("CL401", "cl401c.work")},
    "cl401_unknown": {("CL201", "task_time_limit")},
    "cl402": {("CL402", "cl402.remind"), ("CL402", "remind")},
    "cl403": {("CL403", "worker_prefetch_multiplier")},
    "cl403_limited": set(),   # every acks_late task has a limit: undecided below
    "cl404": set(),
    "cl405": {("CL405", "task_reject_on_worker_lost")},
    "cl406": {("CL406", "broker_connection_retry")},
    "cl407": {("CL407", "broker_transport_options")},
    "cl408": {("CL408", "cl408.nightly")},
    "cl408_unknown": {("CL201", "task_time_limit")},
    "cl408_countdown": {("CL408", "audit_apps/cl408_countdown.py:16"), ("CL408", "audit_apps/cl408_countdown.py:17")},
    "cl409": {("CL409", "reminders")},
    "cl501": {("CL501", "result_expires")},
    "cl501_half": {("CL501", "result_expires")},
    "cl501_db": {("CL501", "result_expires")},
    "cl501_own": set(),   # the project's own backend (Nautobot's): undecided below
    "cl502": {("CL502", "audit_apps/cl502.py:14")},
    "cl503": {("CL503", "result_backend")},
    "cl504": {("CL504", "result_expires")},
    "cl505": {("CL505", "audit_apps/cl505.py:16")},
    "cl506": {("CL506", "cl506.slow")},
    "cl507": {("CL507", "audit_apps/cl507.py:13")},
    "cl508": {("CL508", "audit_apps/cl508.py:19")},
    "cl601": {("CL601", "timezone")},
    "cl602": {("CL602", "nightly"), ("CL602", "repeated")},
    "cl603": {("CL603", "hourly-sync")},
    "cl604": {("CL604", "poll")},
    "cl605": {("CL605", "daily-digest")},
    "cl606": {("CL606", "too-many"), ("CL606", "wrong-keyword")},
    "cl701_default": {("CL701", "task_default_queue")},
    "cl701_routed": set(),
    "cl701_default_unsent": set(),
    "cl702": {("CL702", "task_routes['cl702.payment']")},
    "cl701": {("CL701", "cl701.export"), ("CL701", "task_routes['cl701.invoice']")},
}
UNDECIDED = {"cl604": {("CL604", "sweep")},
             # routes of tasks that exist nowhere, with no unrouted task like them (oncall's 26 stale routes)
             "cl105": {("CL105", "reports.*"), ("CL105", "cl105.migrate_all")},
             "cl108_library": {("CL108", "fakethumbs.generate"), ("CL119", "fakethumbs.generate.serializer")},
             "cl501_own": {("CL501", "result_expires")},
             # a single retry: the error ends in FAILURE on the second try (hypothesis/h's indexer tasks)
             "cl301": {("CL301", "cl301.index_once")},
             "cl403_limited": {("CL403", "worker_prefetch_multiplier")},
             # the next batch sent with a countdown as the transaction's last act (plane's version syncs)
             "cl307_last": {("CL307", "audit_apps/cl307_last.py:21")},
             "cl401_unknown": {("CL401", "acks_late")}, "cl408_unknown": {("CL408", "acks_late")}, "cl404": {("CL404", "worker_prefetch_multiplier")},
             # every send of the unrouted task names a queue: nothing is seen going to the undeclared default one
             "cl701_default_unsent": {("CL701", "task_default_queue")}}


@pytest.mark.parametrize("module", sorted(EXPECTED))
def test_each_app_gets_exactly_its_findings(audit_app, module):
    report = audit_app(module)
    assert pairs(report.findings) == EXPECTED[module]
    assert pairs(report.unknown) == UNDECIDED.get(module, set())
    assert report.errors == []


def test_every_rule_has_an_app_that_triggers_it():
    from test_audit_lessons import INCIDENTS

    live = [{("CL115", "cl115.sometimes")}]  # test_audit_live.py
    found = [*EXPECTED.values(), *UNDECIDED.values(), *INCIDENTS.values(), *live]
    triggered = {rule for each in found for rule, _ in each}
    assert set(all_rules()) - triggered == set()


def test_messages_carry_the_measured_facts(audit_app):
    by_rule = {f.rule.id: f for f in audit_app("cl101_typo").findings}
    assert "`task_acks_late`" in by_rule["CL101"].message
    transport = audit_app("cl101_transport").findings[0]
    assert "broker_transport_options" in transport.message and "visibility_timeout" in transport.message
    retries = audit_app("cl102").findings[0]
    assert "`max_retries` = 3" in retries.message
    half = audit_app("cl501_half").findings[0]
    assert "truncates to 0" in half.message
    backoff = audit_app("cl304").findings[0]
    assert "2.7 acts as 2" in backoff.message
    rhythm = {f.subject: f.message for f in audit_app("cl305").findings}
    assert "every retry waits 180 s" in rhythm["cl305.no_delay_set"]
    late = audit_app("cl401").findings[0]
    assert "7200 s" in late.message and "3600 s (kombu's default)" in late.message
    rabbit = audit_app("cl408").findings[0]
    assert "3600 s" in rabbit.message and "1800 s" in rabbit.message
    configured = audit_app("cl401_configured").findings[0]
    assert "20 s (configured)" in configured.message


def test_a_suggestion_names_the_closest_registered_task(audit_app):
    [finding] = audit_app("cl104").findings
    assert "`data.backup_db`" in finding.message


def test_a_password_that_is_only_a_word_of_the_source_is_not_written_there(audit_app, monkeypatch):
    """The environment's password "shopfront" is a word of cl112_word.py's docstring, not a password written in it."""
    monkeypatch.setenv("AUDIT_CL112_WORD_BROKER", "amqp://shopfront:shopfront@rabbit:5672//")
    report = audit_app("cl112_word")
    assert report.facts["broker"] == "amqp"   # the environment's URL, with its password, is the one in use
    assert "CL112" not in {finding.rule.id for finding in report.findings}


def test_the_result_rules_need_no_redis_client_for_another_backend(audit_app, monkeypatch):
    """doccano (django-db backend) has no redis client: CL501 and CL504 raised ModuleNotFoundError for it."""
    monkeypatch.setitem(sys.modules, "celery.backends.redis", None)   # as if redis were not installed
    report = audit_app("cl501_db")
    assert report.errors == []
    assert ("CL501", "result_expires") in pairs(report.findings)
