"""`celerylab doctor`'s lines on the services some lessons use besides the broker: PostgreSQL and RabbitMQ."""
from __future__ import annotations

import os
import socket
from importlib import metadata

from celerylab import appdb
from celerylab.i18n import t

POSTGRES_ADDRESS = ("127.0.0.1", 5432)  # where doctor looks for a PostgreSQL when no URL is set
# Where lesson 02's section 8 looks for a RabbitMQ (its helpers.RABBITMQ_URL; tests/commands/test_doctor_services.py
# holds the two equal): kept here because no module of commands/ imports a lesson.
RABBITMQ_URL = "amqp://guest:guest@127.0.0.1:5672//"
RABBITMQ_TIMEOUT = 2.0  # seconds the RabbitMQ has to answer


def _listening(address: tuple[str, int]) -> bool:
    try:
        with socket.create_connection(address, timeout=0.5):
            return True
    except OSError:
        return False


def _postgres_version(url: str) -> str:
    import psycopg

    with psycopg.connect(url, connect_timeout=3) as connection:
        return connection.execute("SHOW server_version").fetchone()[0]


def postgres_line() -> str:
    """Whether the lessons' PostgreSQL (from CELERYLAB_DATABASE_URL) answers; without the variable, the packaged
    server every stack starts for itself, or SQLite where no package ships one."""
    from celerylab.stack import packaged_postgres

    url = os.environ.get(appdb.DATABASE_URL_ENV)
    folder = packaged_postgres.binaries()
    if not url and folder is not None:
        return t("doctor.postgres_packaged", server=packaged_postgres.server_version(folder),
                 package=packaged_postgres.PACKAGE, version=metadata.version(packaged_postgres.PACKAGE), path=folder)
    if not url or appdb.kind(url) != "postgresql":
        address = "{}:{}".format(*POSTGRES_ADDRESS)
        hint = t("doctor.postgres_hint", address=address) if _listening(POSTGRES_ADDRESS) else ""
        return t("doctor.postgres_unset", hint=hint)
    try:
        version = _postgres_version(url)
    except Exception as error:  # any failure to connect is what the line reports
        return t("doctor.postgres_down", url=url, error=f"{type(error).__name__}: {str(error).strip()}")
    return t("doctor.postgres_ok", url=url, server=f"PostgreSQL {version}")


def amqp_unreachable(url: str, timeout: float = RABBITMQ_TIMEOUT) -> str:
    """"" when an AMQP broker answers at `url`, else why not (``"ConnectionRefusedError: ..."``)."""
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=timeout) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0)
    except Exception as error:  # any failure to connect is the reason given
        return f"{type(error).__name__}: {error}"
    return ""


def rabbitmq_line() -> str:
    """Whether a RabbitMQ answers where lesson 02 looks for one."""
    why = amqp_unreachable(RABBITMQ_URL)
    if not why:
        return t("doctor.rabbitmq_ok", url=RABBITMQ_URL)
    return t("doctor.rabbitmq_down", url=RABBITMQ_URL, error=why)


def lines() -> list[str]:
    return [postgres_line(), rabbitmq_line()]
