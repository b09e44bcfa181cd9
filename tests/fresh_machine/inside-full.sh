#!/usr/bin/env bash
# Run by `.ci/fresh-machine --full` inside the fresh root: the README's test command, the whole suite, as a new user
# types it (PYTEST_ARGS, when given, replaces the suite by what it names: re-running some tests only).
set -euo pipefail
cd /root/celerylab
python3 --version
if command -v redis-server rabbitmq-server postgres docker chromium prometheus; then exit 1; fi  # nothing but Python
# -rfEs: every failure, error and skip (with its reason) in the summary, counted at the end by the caller.
# shellcheck disable=SC2086
if python3 run.py test -rfEs ${PYTEST_ARGS:-}; then echo "FULL-SUITE OK"; else echo "FULL-SUITE FAILED"; exit 1; fi
