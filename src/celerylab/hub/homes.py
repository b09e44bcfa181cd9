"""Learners' notebooks read from their home folders: the Unix users the hub made (one name prefix), read as root."""
from __future__ import annotations

import os
import pwd
from datetime import datetime, timezone
from pathlib import Path

from celerylab.grader.intake import read
from celerylab.grader.submission import Rejected
from celerylab.hub.handed_in import Learner, Notebook, is_exercises
from celerylab.i18n import t

PREFIX = "clab-"
COURSE_FOLDER = "celerylab"  # each learner's copy of the course in their home (deploy/jupyterhub)


def learners(prefix: str = PREFIX, folder: str = COURSE_FOLDER, users=None) -> list[Learner]:
    """Every Unix user named `prefix`+name, with the exercises notebooks under `~/folder/exercises/<lang>/`."""
    found = []
    for user in sorted(users if users is not None else pwd.getpwall(), key=lambda each: each.pw_name):
        if user.pw_name.startswith(prefix) and len(user.pw_name) > len(prefix):
            learner = Learner(user.pw_name[len(prefix):], user.pw_gecos.split(",")[0].strip())
            learner.notebooks, learner.problem = notebooks(Path(user.pw_dir), folder, user.pw_uid)
            found.append(learner)
    return found


def notebooks(home: Path, folder: str, uid: int) -> tuple[list[Notebook], str]:
    """The learner's exercises notebooks: regular files they own, inside their home (no link leads out), read
    with the grader's limits; a translated problem when the course folder is missing."""
    exercises = home / folder / "exercises"
    if not exercises.is_dir():
        return [], t("hub.collect.no_course", path=exercises)
    inside = Path(os.path.realpath(home))
    kept = []
    for lang in sorted(os.listdir(exercises)):
        where = exercises / lang
        if where.is_symlink() or not where.is_dir():
            continue
        for name in sorted(os.listdir(where)):
            path = where / name
            real = Path(os.path.realpath(path))
            if not is_exercises(name) or inside not in real.parents:
                continue
            try:
                info = os.lstat(path)
                if info.st_uid != uid:  # a hard link to someone else's file keeps its owner
                    continue
                raw = read(path, home)
            except (OSError, Rejected):
                continue
            kept.append(Notebook(name, raw, datetime.fromtimestamp(info.st_mtime, tz=timezone.utc), lang))
    return kept, ""
