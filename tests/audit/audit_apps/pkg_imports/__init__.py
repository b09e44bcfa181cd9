"""A package whose __init__ imports its task module: naming the package in include is enough."""
from . import jobs  # noqa: F401
