"""Import the user's Celery app as `celery -A` does and finish it as a worker would, starting and connecting to nothing."""
from __future__ import annotations

import importlib
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError

from celery import Celery

from celerylab.audit import codec_registry
from celerylab.audit.tracebacks import user_traceback
from celerylab.i18n import t


class LoadError(Exception):
    """The app could not be loaded: `message` says why; `traceback` is the user's, when their code raised."""

    def __init__(self, message: str, traceback: str = ""):
        super().__init__(message)
        self.message, self.traceback = message, traceback

    def __str__(self) -> str:
        return self.message + (f"\n{self.traceback}" if self.traceback else "")


@dataclass
class Loaded:
    app: Celery
    spec: str
    modules: list[str]      # the modules the load imported (user code and libraries), in import order
    folder: str = ""        # the folder put first on the import path: file names are shown relative to it


def user_error(spec: str, stage: str, error: BaseException) -> LoadError:
    message = t("audit.load.user_error", spec=spec, stage=t(f"audit.stage.{stage}"))
    return LoadError(message, user_traceback(error))


def import_module(spec: str, name: str):
    """The module `name`, or None when it (or a parent package) does not exist; the user's errors raise LoadError."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        # importlib.metadata's PackageNotFoundError is one too, named after a distribution, not a module
        missing = error.name and not isinstance(error, PackageNotFoundError)
        if missing and (name == error.name or name.startswith(f"{error.name}.")):
            return None
        raise user_error(spec, "import", error) from error
    except (Exception, SystemExit) as error:
        raise user_error(spec, "import", error) from error


# What `celery worker` runs without -A: Celery's default app, configured by the default loader from the module
# named by $CELERY_CONFIG_MODULE (celeryconfig), as Celery's eventlet example runs. `-A celery:current_app` names it.
DEFAULT_SPECS = ("celery:current_app", "celery.current_app")
CONFIG_MODULE_ENV = "CELERY_CONFIG_MODULE"


def config_module_name() -> str:
    return os.environ.get(CONFIG_MODULE_ENV) or "celeryconfig"


def has_config_module(folder: str) -> bool:
    """A worker started in `folder` without -A would find a configuration module there (or one is named)."""
    return bool(os.environ.get(CONFIG_MODULE_ENV)) or os.path.exists(os.path.join(folder, "celeryconfig.py"))


def default_app() -> Celery:
    """A fresh copy of the app Celery makes when none is current (celery._state), never Celery's own shared one."""
    return Celery("default", fixups=[], set_as_current=False, loader=os.environ.get("CELERY_LOADER") or "default")


def find_app(spec: str) -> Celery:
    """`module`, `module:attribute` or `module.attribute`, looked up the way `celery -A` looks them up."""
    if spec in DEFAULT_SPECS:
        return default_app()
    name, _, attribute = spec.partition(":")
    module = import_module(spec, name)
    if module is None and not attribute and "." in name:
        parent, _, child = name.rpartition(".")
        module = import_module(spec, parent)
        if module is None or not hasattr(module, child):  # no module `a.b` and no attribute b of `a`
            raise LoadError(t("audit.load.not_found", spec=spec, module=name, cwd=os.getcwd()))
        name, attribute = parent, child
    if module is None:
        raise LoadError(t("audit.load.not_found", spec=spec, module=name, cwd=os.getcwd()))
    if attribute:
        found = module
        for part in attribute.split("."):
            if not hasattr(found, part):
                raise LoadError(t("audit.load.no_attribute", spec=spec, module=name, attribute=attribute))
            found = getattr(found, part)
        if isinstance(found, Celery):
            return found
        raise LoadError(t("audit.load.not_celery", spec=spec, found=f"{name}:{attribute}", kind=type(found).__name__))
    for candidate in ("app", "celery"):
        if isinstance(getattr(module, candidate, None), Celery):
            return getattr(module, candidate)
    if getattr(module, "__path__", None):
        submodule = import_module(spec, f"{name}.celery")
        if submodule is not None:
            for value in vars(submodule).values():
                if isinstance(value, Celery):
                    return value
    for value in vars(module).values():
        if isinstance(value, Celery):
            return value
    raise LoadError(t("audit.load.no_attribute", spec=spec, module=name, attribute="app"))


def finish(spec: str, app: Celery) -> None:
    """Read the configuration and import the task modules (include, imports, autodiscover), as a worker's start does."""
    try:
        app.conf.broker_url  # noqa: B018 - reading any key loads config_from_object / config_from_envvar
    except (Exception, SystemExit) as error:
        raise user_error(spec, "configure", error) from error
    try:
        app.loader.import_default_modules()
        app.finalize(auto=True)
    except (Exception, SystemExit) as error:
        raise user_error(spec, "tasks", error) from error


@contextmanager
def loaded(spec: str, path: str | None = None):
    """The app `spec`, loaded; on exit, the user's modules this load imported are forgotten again.

    Forgetting them (and the shared-task hooks they added) keeps one process able to audit several apps,
    each as a fresh worker would see it: an app never inherits another's `@shared_task`s.
    """
    from celery import _state

    folder = os.path.abspath(path or os.getcwd())
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    before = set(sys.modules)
    finalizers = set(_state._on_app_finalizers)
    builtin = {hook for hook in finalizers if getattr(hook, "__module__", "") == "celery.app.builtins"}
    _state._on_app_finalizers.clear()
    _state._on_app_finalizers.update(builtin)
    try:
        with codec_registry.kept():   # a codec the user's modules register goes with them
            app = find_app(spec)
            finish(spec, app)
            yield Loaded(app, spec, [name for name in sys.modules if name not in before], folder)
    finally:
        _state._on_app_finalizers.clear()
        _state._on_app_finalizers.update(finalizers)
        for name in [name for name in sys.modules if name not in before]:
            if is_user_module(sys.modules.get(name)) and name.partition(".")[0] != "celerylab":
                del sys.modules[name]
        if added and folder in sys.path:
            sys.path.remove(folder)


def is_user_module(module) -> bool:
    """A module of the user's project: a file outside the interpreter's and the installed packages' folders."""
    path = getattr(module, "__file__", None) or ""
    if not path:
        return False
    path = os.path.abspath(path)
    return "site-packages" not in path and "dist-packages" not in path and not path.startswith(STDLIB)


STDLIB = os.path.dirname(os.__file__)
