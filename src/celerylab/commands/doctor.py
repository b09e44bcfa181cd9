"""`celerylab doctor`: what this machine offers the course (broker kinds, versions) and a live smoke test."""
from __future__ import annotations

import time

from celerylab.i18n import t


def register(subparsers) -> None:
    parser = subparsers.add_parser("doctor", help=t("doctor.help"))
    parser.add_argument("--broker-url", help=t("doctor.broker_url"))
    parser.set_defaults(run=run)


def redis_programs() -> list[str]:
    """One line for the system's redis-server, one for the redis-server a Python package ships."""
    from celerylab.stack import redis_binaries

    system, packaged = redis_binaries.system(), redis_binaries.packaged()
    lines = [t("doctor.redis_server", path=system.path if system else "-")]
    if packaged:
        lines.append(t("doctor.packaged_redis", package=packaged.package, path=packaged.path))
    else:
        lines.append(t("doctor.no_packaged_redis", packages=", ".join(redis_binaries.PACKAGES)))
    return lines


def run(args) -> int:
    import celery
    import kombu

    from celerylab.stack import Stack

    print(t("doctor.versions", celery=celery.__version__, kombu=kombu.__version__))
    print("\n".join(redis_programs()))
    started = time.perf_counter()
    with Stack.start("celerylab.stack.smoke", broker_url=args.broker_url, timeline=False) as stack:
        print(stack.describe())
        result = stack.app.send_task("celerylab.smoke.ping").get(timeout=10)
        print(t("doctor.roundtrip", result=result, seconds=f"{time.perf_counter() - started:.2f}"))
    return 0
