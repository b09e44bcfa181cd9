"""Load error: the user's module imports a dependency that is not installed."""
import audit_surely_missing_dependency  # noqa: F401
