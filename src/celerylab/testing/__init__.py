"""Test-suite support shipped with the package: the suite's pytest plugins (machine needs, nbval on generated notebooks)."""
