"""Reading learners' homes: only the prefix's users, only their own regular files inside their home."""
from __future__ import annotations

import os
import pwd

from celerylab.hub.homes import learners

UID = os.getuid()


def user(name: str, home, uid: int = UID, gecos: str = "") -> pwd.struct_passwd:
    return pwd.struct_passwd((name, "x", uid, uid, gecos, str(home), "/bin/bash"))


def course(home, lang="pt"):
    folder = home / "celerylab" / "exercises" / lang
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_only_prefixed_users_and_exercises_notebooks(tmp_path):
    ana, root = tmp_path / "ana", tmp_path / "root"
    (course(ana) / "01_retries_exercises.ipynb").write_text('{"a": 1}')
    (course(ana) / "02_workers_exercicios.ipynb").write_text('{"b": 2}')   # the Portuguese name
    (course(ana) / "01_retries.ipynb").write_text("{}")          # a lesson notebook, not an exercise
    (course(ana) / "notes_exercises.txt").write_text("")
    (course(root) / "01_retries_exercises.ipynb").write_text("{}")
    found = learners(users=[user("clab-ana", ana, gecos="Ana Souza,,,"), user("root", root), user("clab-", root)])
    assert [(each.name, each.full_name) for each in found] == [("ana", "Ana Souza")]
    assert [(n.name, n.raw) for n in found[0].notebooks] == [("01_retries_exercises.ipynb", b'{"a": 1}'),
                                                             ("02_workers_exercicios.ipynb", b'{"b": 2}')]


def test_links_out_of_the_home_and_files_of_others_are_not_read(tmp_path):
    ana, secret = tmp_path / "ana", tmp_path / "secret"
    secret.mkdir()
    (secret / "02_workers_exercises.ipynb").write_text("secret")
    os.symlink(secret / "02_workers_exercises.ipynb", course(ana) / "02_workers_exercises.ipynb")
    os.symlink(secret, ana / "celerylab" / "exercises" / "en")   # a whole language folder pointing out
    os.mkfifo(course(ana) / "03_silent_defects_exercises.ipynb")  # opening it would block
    (course(ana) / "04_results_exercises.ipynb").write_text("mine")
    (found,) = learners(users=[user("clab-ana", ana)])
    assert [n.name for n in found.notebooks] == ["04_results_exercises.ipynb"]
    (found,) = learners(users=[user("clab-ana", ana, uid=UID + 1)])  # the files are not the learner's
    assert found.notebooks == []


def test_a_learner_without_the_course_is_listed_with_the_reason(tmp_path):
    (found,) = learners(users=[user("clab-bia", tmp_path / "bia")])
    assert found.notebooks == [] and "celerylab" in found.problem
