"""JupyterLab settings overrides shipped with `celerylab lab` (overrides.json)."""
