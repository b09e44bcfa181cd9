"""Rules on the app's settings themselves: unknown keys, task attributes posing as settings, eager mode, lost config."""
from __future__ import annotations

from celery import Task

from celerylab.audit import project_settings as known
from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.setting_reads import library_reads, package_reads, project_reads, spelled


def reached_another_way(view, key: str, setting: str) -> bool:
    """`CELERY_BROKER_URL` the app does not read, whose value reached `broker_url` all the same (`Celery(broker=...)`)."""
    try:
        return view.conf.get(setting) == view.user[key] and view.user[key] is not None
    except Exception:
        return False


def unread_keys(view) -> list[str]:
    """The user's keys Celery does not know that no code reads: not the project's own code (its own switches are its
    own: the loaded modules, --scan's files, the rest of the app's package), nor an installed library loaded with it
    (django-celery-email's `CELERY_EMAIL_BACKEND`, offered to Celery with the whole Django settings, is the
    library's). Each source is read only for the keys the ones before it left."""
    unknown = [key for key in sorted(view.user) if not (known.is_known(key) or known.task_attribute(key))]

    def unread(reads: set[str]) -> list[str]:
        return [key for key in unknown if not spelled(view, key) & reads]

    def names() -> set[str]:
        return {name for key in unknown for name in spelled(view, key)}

    if unknown:
        unknown = unread(project_reads(view))
    # A Celery setting under a prefix Celery does not read (CELERY_BROKER_URL without namespace) stays Celery's
    # business whoever else reads it: only the project's own reads (passing it on, as Flask's make_celery does)
    # answer for it, and reached_another_way checks that.
    theirs = [key for key in unknown if known.unprefixed(key)]
    unknown = [key for key in unknown if not known.unprefixed(key)]
    if unknown:
        unknown = unread(package_reads(view, names()))
    if unknown:
        unknown = unread(library_reads(names()))
    return sorted([*theirs, *unknown])


@rule("CL101", "unknown-setting", "high", "defect")
def unknown_setting(view):
    """A key Celery does not know, that no code of the project or of its libraries reads."""
    for key in unread_keys(view):
        option = known.transport_option(key)
        if option:
            yield Hit(key, {"key": key, "option": option}, message="transport")
        elif known.unprefixed(key) and not view.app.namespace:
            if not reached_another_way(view, key, known.unprefixed(key)):
                yield Hit(key, {"key": key, "setting": known.unprefixed(key)}, message="namespace")
        elif known.closest(key) == "-":
            yield Hit(key, {"key": key}, message="far")
        else:
            yield Hit(key, {"key": key, "closest": known.closest(key)})


@rule("CL102", "task-attribute-as-setting", "high", "defect")
def task_attribute_as_setting(view):
    for key in sorted(view.user):
        attribute = None if known.is_known(key) else known.task_attribute(key)
        if attribute:
            yield Hit(key, {"key": key, "attribute": attribute, "value": repr(getattr(Task, attribute))})


@rule("CL110", "always-eager", "high", "defect")
def always_eager(view):
    if view.conf.task_always_eager:
        yield Hit("task_always_eager", {"propagates": bool(view.conf.task_eager_propagates)})


@rule("CL111", "config-module-not-loaded", "high", "defect")
def config_module_not_loaded(view):
    source = getattr(view.app, "_config_source", None)
    if source is None:
        return
    label = source if isinstance(source, str) else getattr(source, "__name__", type(source).__name__)
    if isinstance(source, str) and getattr(view.app, "_config_source_silent", False):
        try:
            view.app.loader._smart_import(source, imp=view.app.loader.import_from_cwd)
        except (ImportError, AttributeError) as error:
            yield Hit(label, {"source": label, "error": f"{type(error).__name__}: {error}"})
            return
    read = [*known.source_keys(view.app), *known.raw_source_keys(view.app)]  # Celery also reads plain and old names
    if not any(known.is_known(key) for key in read):
        yield Hit(label, {"source": label, "namespace": f"{view.app.namespace}_" if view.app.namespace else ""},
                  message="empty" if view.app.namespace else "empty_plain")


@rule("CL406", "connection-retry-startup", "low", "defect")
def connection_retry_startup(view):
    if view.conf.broker_connection_retry is False and view.conf.broker_connection_retry_on_startup is None:
        yield Hit("broker_connection_retry")
