"""`--live`: one real worker of the app on a private broker, asked which tasks it registered."""
from __future__ import annotations

import tempfile
from pathlib import Path

APP_ENV = "CELERYLAB_AUDIT_APP"
PATH_ENV = "CELERYLAB_AUDIT_PATH"
SOURCE_ENV = "CELERYLAB_AUDIT_SOURCE"   # the folder this celerylab is imported from, for the worker too
WRAPPER = "celerylab_audit_live"
ATTEMPTS = 3


class NoAnswer(Exception):
    """The worker started but did not say what it registered."""
# The module the worker loads: the user's app, pointed at the stack's broker and backend (inside its key
# namespace); nothing else of the app changes.
WRAPPER_SOURCE = '''"""The audited app, pointed at a private stack's broker (written by celerylab audit --live)."""
import os
import sys

sys.path[:0] = [os.environ["{path_env}"], os.environ["{source_env}"]]
from celerylab.audit.loader import find_app
from celerylab.stack import appconfig

app = find_app(os.environ["{app_env}"])
appconfig.apply_settings(app, appconfig.env_settings())
'''.format(app_env=APP_ENV, path_env=PATH_ENV, source_env=SOURCE_ENV)


def registered(spec: str, path: str, timeout: float = 5.0) -> set[str]:
    """The task names a worker of `spec` registers, asked over a private broker (raises StackError on failure)."""
    import celerylab
    from celerylab.stack import Stack

    folder = Path(tempfile.mkdtemp(prefix="celerylab-audit-"))
    (folder / f"{WRAPPER}.py").write_text(WRAPPER_SOURCE, encoding="utf-8")
    # The client is another app on the same broker: the audited app in this process keeps its own settings.
    with Stack.start(WRAPPER, workers=1, timeline=False, pythonpath=(str(folder), path),
                     env={APP_ENV: spec, PATH_ENV: path, SOURCE_ENV: str(Path(celerylab.__file__).parents[1])},
                     client="celerylab.stack.smoke") as stack:
        worker = stack.workers[0]
        replies: dict = {}
        for _ in range(ATTEMPTS):  # a loaded machine can miss one round; no answer is never "registered nothing"
            inspect = stack.app.control.inspect(destination=[worker.hostname], timeout=timeout)
            replies = inspect.registered() or {}
            if worker.hostname in replies:
                break
        else:
            raise NoAnswer(f"{worker.hostname}: inspect registered ({ATTEMPTS} x {timeout:g} s)")
    return {name.split(" ")[0] for name in replies[worker.hostname]}
