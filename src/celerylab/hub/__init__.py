"""The course on JupyterHub: each learner's notebooks gathered from a hub into a submissions folder."""
