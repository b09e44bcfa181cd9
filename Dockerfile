# One image for every service of docker-compose.yml: Redis (Debian's redis-server
# package), the Celery workers, Beat, Flower and JupyterLab with the course. The
# package is installed in a virtualenv with the tested versions (constraints.txt),
# exactly as `python3 run.py` does.
#
# BASE_IMAGE: any Debian bookworm image with python3 3.11 and its venv module.
# Users get the public python:3.11-slim-bookworm; CI, which reaches no image
# registry, builds on a local Debian bookworm made with debootstrap (.ci/setup-docker),
# whose python3 is also 3.11, the version constraints.txt was resolved on.
ARG BASE_IMAGE=python:3.11-slim-bookworm
FROM ${BASE_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    VIRTUAL_ENV=/opt/celerylab \
    PATH=/opt/celerylab/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    CELERYLAB_ROOT=/course

# redis-server serves the compose `redis` service (as the package's `redis` user,
# data in /var/lib/redis), and inside the jupyterlab container it is the private
# broker a lesson's stack prefers.
RUN apt-get update \
    && apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 1000 learner \
    && python3 -m venv /opt/celerylab

WORKDIR /build
COPY pyproject.toml constraints.txt README.md ./
COPY src ./src
RUN pip install --no-cache-dir -c constraints.txt ".[hub]" && rm -rf /build

# The course itself (lessons, exercises, solutions), writable by the learner.
COPY --chown=learner:learner . /course

USER learner
WORKDIR /home/learner
