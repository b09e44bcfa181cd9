import audit_surely_missing_dependency  # noqa: F401
