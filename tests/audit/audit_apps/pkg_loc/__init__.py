"""A project package with an empty __init__ (as `celery -A proj` projects often have): the app is in pkg_loc/celery.py."""
