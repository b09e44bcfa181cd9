"""Plain helpers beside the app: no task here."""


def double(value):
    return 2 * value
