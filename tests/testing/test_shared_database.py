"""The listed files' stacks share one PostgreSQL server per process, a schema each; the other files' start as before."""
from __future__ import annotations

import pytest

from celerylab.testing.shared_database import listed

pytest_plugins = ["pytester"]


def test_a_listed_file_or_folder_holds_its_tests_and_no_other():
    paths = ["src/celerylab/lessons", "tests/course/test_self_check.py"]
    assert listed("src/celerylab/lessons/l01_retries/test_claims_retries.py::test_x", paths)
    assert listed("tests/course/test_self_check.py::test_check_fails_on_the_unsolved_exercise[l01.a-l01]", paths)
    assert not listed("tests/course/test_self_check_more.py::test_x", paths)
    assert not listed("src/celerylab/lessons_other/test_x.py::test_x", paths)
    assert not listed("notebooks/pt/01_retries.ipynb::Cell 0", paths)


@pytest.mark.live
@pytest.mark.needs("postgres")
def test_listed_stacks_get_a_schema_on_one_server_and_the_others_choose_as_before(pytester, monkeypatch):
    monkeypatch.delenv("CELERYLAB_DATABASE_URL", raising=False)
    pytester.makeini("[pytest]\ncelerylab_shared_database = test_shared.py\n")
    pytester.makepyfile(test_shared="""
        import os, pytest
        from celerylab.stack import Stack

        @pytest.fixture(scope="module")
        def stacks():  # module-scoped: set up before any function fixture, yet on the shared server
            with Stack.start("celerylab.stack.smoke", workers=0, database=["CREATE TABLE t (n INTEGER)"]) as one, \\
                    Stack.start("celerylab.stack.smoke", workers=0, database=["CREATE TABLE t (n INTEGER)"]) as two:
                yield one, two

        def test_each_stack_has_a_schema_on_the_one_server(stacks):
            one, two = stacks
            assert one.database.server is None and two.database.server is None
            assert one.database.schema and one.database.schema != two.database.schema
            assert one.database_url.split("?")[0] == two.database_url.split("?")[0] == os.environ["CELERYLAB_DATABASE_URL"]
        """, test_other="""
        import os

        def test_nothing_is_asked_outside_the_listed_files():
            assert "CELERYLAB_DATABASE_URL" not in os.environ
        """)
    result = pytester.runpytest_subprocess("-p", "celerylab.testing.shared_database", "-p", "no:cacheprovider",
                                           "-p", "celerylab.testing.schedule", "-n", "0", "test_shared.py",
                                           "test_other.py")
    result.assert_outcomes(passed=2)
