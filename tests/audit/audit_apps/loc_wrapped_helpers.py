"""Decorators of the project's own, in a file of their own, as a task module imports them."""
import functools
from contextlib import ContextDecorator


class atomic(ContextDecorator):  # noqa: N801 - Django's transaction.atomic, without Django
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def logged(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return function(*args, **kwargs)
    return wrapper
