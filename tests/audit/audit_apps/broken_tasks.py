"""A task module that cannot be imported (bad_include lists it)."""
raise ImportError("cannot import name 'Invoice' from 'billing.models'")
