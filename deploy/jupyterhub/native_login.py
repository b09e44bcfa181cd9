"""NativeAuthenticator (1.3.0, its latest) on JupyterHub 6: its login handler times each login with `self.statsd`,
which JupyterHub 6 removed, so every POST /hub/login failed with 500; here a timer that does nothing stands in."""
from __future__ import annotations

from jupyterhub.handlers.base import BaseHandler
from nativeauthenticator import NativeAuthenticator
from nativeauthenticator.handlers import LoginHandler


class _Timer:
    def start(self) -> _Timer:
        return self

    def stop(self, send: bool = True) -> None:
        pass


class _NoMetrics:
    def timer(self, name: str) -> _Timer:
        return _Timer()


class CourseLoginHandler(LoginHandler):
    """NativeAuthenticator's login page, with the `statsd` it expects when JupyterHub has none."""

    if not hasattr(BaseHandler, "statsd"):
        statsd = _NoMetrics()


class CourseAuthenticator(NativeAuthenticator):
    """NativeAuthenticator with the login page above; configured as NativeAuthenticator (its settings apply)."""

    def get_handlers(self, app):
        return [(path, CourseLoginHandler if handler is LoginHandler else handler)
                for path, handler in super().get_handlers(app)]
