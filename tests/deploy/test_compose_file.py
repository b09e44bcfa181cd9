"""docker-compose.yml is valid Compose and has the production shape the course teaches."""
from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from composefile import (
    COMPOSE_FILE,
    ENV_EXAMPLE,
    ROOT,
    as_argv,
    interpolate,
    load_compose,
    read_env_file,
    variables_used,
)

SCHEMA = Path(__file__).with_name("compose-spec") / "compose-spec.json"
WORKERS = {"worker-default": ("default", "4"), "worker-priority": ("priority", "8"),
           "worker-heavy": ("heavy", "2")}
CELERY_SERVICES = [*WORKERS, "beat", "flower", "jupyterlab"]


@pytest.fixture(scope="module")
def compose() -> dict:
    return load_compose()


def schema_errors(document: dict) -> list[str]:
    validator = jsonschema.Draft201909Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    return [f"{'/'.join(map(str, error.path))}: {error.message}" for error in validator.iter_errors(document)]


def test_valid_against_the_compose_specification(compose):
    assert schema_errors(compose) == []


def test_the_schema_catches_a_misspelled_key(compose):
    broken = copy.deepcopy(compose)
    broken["services"]["beat"]["depends_onn"] = broken["services"]["beat"].pop("depends_on")
    assert any("depends_onn" in error for error in schema_errors(broken))


def test_every_variable_has_a_value_in_env_example():
    used = variables_used(COMPOSE_FILE.read_text(encoding="utf-8"))
    assert used <= set(read_env_file())
    with pytest.raises(KeyError, match="FLOWER_BASIC_AUTH"):
        interpolate(COMPOSE_FILE.read_text(encoding="utf-8"), {})


def test_dot_env_is_git_ignored_and_the_example_is_not():
    ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT).returncode
    assert ignored == 0
    assert subprocess.run(["git", "check-ignore", "-q", ENV_EXAMPLE.name], cwd=ROOT).returncode == 1


def test_one_image_built_from_the_repository_for_every_service(compose):
    for name, service in compose["services"].items():
        if name == "postgres" or service.get("profiles") == ["monitoring"]:
            continue
        assert service["build"] == "." and service["image"] == "celerylab:local", name
    assert "constraints.txt" in (ROOT / "Dockerfile").read_text(encoding="utf-8")


def test_a_worker_per_queue_with_its_concurrency(compose):
    for name, (queue, concurrency) in WORKERS.items():
        argv = as_argv(compose["services"][name]["command"])
        assert argv[argv.index("-Q") + 1] == queue
        assert argv[argv.index("-c") + 1] == concurrency
        assert "-B" not in argv and "--beat" not in argv


def test_exactly_one_beat(compose):
    beats = [name for name, service in compose["services"].items()
             if "beat" in as_argv(service.get("command", []))]
    assert beats == ["beat"]
    assert compose["services"]["beat"]["deploy"]["replicas"] == 1


def test_celery_services_wait_for_a_healthy_redis(compose):
    assert "healthcheck" in compose["services"]["redis"]
    for name in CELERY_SERVICES:
        service = compose["services"][name]
        assert service["depends_on"] == {"redis": {"condition": "service_healthy"}}, name
        assert "redis://redis:6379/" in service["environment"]["REDIS_URL"], name
        assert "localhost" not in json.dumps(service["environment"]), name


def test_only_flower_and_jupyterlab_are_published_and_only_on_loopback(compose):
    published = {name: service["ports"] for name, service in compose["services"].items()
                 if "ports" in service and not service.get("profiles")}
    assert published == {"flower": ["127.0.0.1:5555:5555"], "jupyterlab": ["127.0.0.1:8888:8888"]}


def test_secrets_come_from_the_env_file(compose):
    env_example = read_env_file()
    assert compose["services"]["flower"]["environment"]["FLOWER_BASIC_AUTH"] == env_example["FLOWER_BASIC_AUTH"]
    assert compose["services"]["jupyterlab"]["environment"]["JUPYTER_TOKEN"] == env_example["JUPYTER_TOKEN"]
    assert "${FLOWER_BASIC_AUTH" in COMPOSE_FILE.read_text(encoding="utf-8")


def test_postgres_is_an_optional_profile(compose):
    postgres = compose["services"]["postgres"]
    assert postgres["profiles"] == ["idempotency"]
    for name, service in compose["services"].items():
        assert "postgres" not in service.get("depends_on", {}), name


def test_the_lessons_database_is_sqlite_unless_postgres_is_asked_for(compose):
    assert compose["services"]["jupyterlab"]["environment"]["CELERYLAB_DATABASE_URL"] == ""
    with_postgres = load_compose({**read_env_file(), "CELERYLAB_DATABASE_URL": "postgresql://x@postgres/y"})
    assert with_postgres["services"]["jupyterlab"]["environment"]["CELERYLAB_DATABASE_URL"].startswith("postgresql://")


def test_each_worker_is_health_checked_by_a_canary_through_its_own_queue(compose):
    """Not `inspect ping` alone: a worker that stopped consuming still answers it (lesson 07, section 3)."""
    for name, (queue, _) in WORKERS.items():
        test = compose["services"][name]["healthcheck"]["test"]
        assert test[0] == "CMD-SHELL" and "inspect ping" not in test[1], name
        argv = test[1].split()
        assert argv[:3] == ["python", "-m", "celerylab.deploy.canary"], name
        assert argv[argv.index("--queue") + 1] == queue, name
        assert argv[argv.index("--node") + 1] == f"{queue}@$HOSTNAME", name


def test_the_canary_expires_before_its_health_check_gives_up_and_a_slow_host_can_lengthen_both():
    def limits(compose: dict) -> set[tuple[int, int]]:
        """Each worker's (canary expiry, health-check limit), in seconds."""
        found = set()
        for name in WORKERS:
            check = compose["services"][name]["healthcheck"]
            argv = check["test"][1].split()
            found.add((int(argv[argv.index("--timeout") + 1]), int(check["timeout"].removesuffix("s"))))
        return found

    assert limits(load_compose()) == {(10, 15)}
    slow = {**read_env_file(), "CELERYLAB_CANARY_SECONDS": "60", "CELERYLAB_HEALTHCHECK_TIMEOUT": "90s"}
    assert limits(load_compose(slow)) == {(60, 90)}
