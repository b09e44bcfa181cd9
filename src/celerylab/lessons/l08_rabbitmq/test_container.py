"""The container node's watcher: it removes the container once the process that started it is gone, and not before."""
from __future__ import annotations

import subprocess
import sys

from celerylab.lessons.l08_rabbitmq import container
from celerylab.polling import until


def test_the_watcher_removes_the_container_once_its_owner_is_gone(tmp_path):
    removed = tmp_path / "removed"
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)"])
    watcher = subprocess.Popen([sys.executable, "-I", "-c", container.WATCHER, str(owner.pid),
                                sys.executable, "-c", f"open({str(removed)!r}, 'w').write('rm -f')"])
    try:
        assert not until(removed.exists, 1.0)  # the owner lives: nothing removed
        owner.wait()
        assert watcher.wait(timeout=30) == 0
        assert removed.read_text() == "rm -f"
    finally:
        owner.kill()
        watcher.kill()
