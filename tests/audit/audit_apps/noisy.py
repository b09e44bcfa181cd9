"""An app whose code prints while it loads (a project that prints its config), through print, sys.stdout and fd 1."""
import os
import sys

from audit_apps.base import make_app

print("noisy: loading settings", {"debug": True})
sys.stdout.write("noisy: via sys.stdout\n")
os.write(1, b"noisy: via file descriptor 1\n")

app = make_app("noisy", task_acks_lat=True)


@app.task(name="noisy.work")
def work():
    print("noisy: never printed, the audit runs no task")
    return 1
