"""Load error: the user's module raises at import (a missing environment variable)."""
import os


def database_url():
    return os.environ["AUDIT_SURELY_UNSET_DATABASE_URL"]


DATABASE = database_url()
