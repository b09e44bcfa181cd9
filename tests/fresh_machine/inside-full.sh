#!/usr/bin/env bash
# Run by `.ci/fresh-machine --full` inside the fresh root: the README's test command, the whole suite, as a new user
# types it (PYTEST_ARGS, when given, replaces the suite by what it names: re-running some tests only).
set -euo pipefail
cd /root/celerylab
python3 --version
if command -v redis-server rabbitmq-server postgres docker chromium prometheus; then exit 1; fi  # nothing but Python
# -rfEs: every failure, error and skip (with its reason) in the summary; then the skips counted by reason, each
# reason that names no way to get what it lacks marked.
status=0
# shellcheck disable=SC2086
python3 run.py test -rfEs ${PYTEST_ARGS:-} 2>&1 | tee /tmp/suite.log || status=$?
echo "SKIPS BY REASON"
python3 tests/fresh_machine/skip_reasons.py /tmp/suite.log
if [ "$status" -eq 0 ]; then echo "FULL-SUITE OK"; else echo "FULL-SUITE FAILED"; exit 1; fi
