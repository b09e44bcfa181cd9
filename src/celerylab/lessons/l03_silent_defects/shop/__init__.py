"""A small application package: e-mail tasks, scheduled tasks and a module named tasks."""
