# One image for every service of docker-compose.yml: Redis, the Celery workers,
# Beat, Flower and JupyterLab with the course. The package is installed with
# the tested versions (constraints.txt), exactly as `python3 run.py` does.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CELERYLAB_ROOT=/course

# redis-server serves the compose `redis` service, and inside the jupyterlab
# container it is the private broker a lesson's stack prefers.
RUN apt-get update \
    && apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 1000 learner

WORKDIR /build
COPY pyproject.toml constraints.txt README.md ./
COPY src ./src
RUN pip install --no-cache-dir -c constraints.txt . && rm -rf /build

# The course itself (lessons, exercises, solutions), writable by the learner.
COPY --chown=learner:learner . /course

USER learner
WORKDIR /home/learner
