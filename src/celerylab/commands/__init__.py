"""Subcommands of the `celerylab` command line, one module each."""
