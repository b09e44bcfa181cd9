#!/usr/bin/env bash
# Run by .ci/fresh-machine inside the fresh root: the README's two commands, as a new user types them.
set -euo pipefail
cd /root/celerylab
start=$(date +%s)
say() { echo "inside: [$(( $(date +%s) - start ))s] $*"; }
python3 --version
if command -v redis-server rabbitmq-server postgres docker chromium prometheus; then exit 1; fi  # nothing but Python

# 1. The set-up and the lab, answering with its token (and refusing without it).
python3 run.py lab --lang en --no-browser --port 8899 --token freshtoken >/tmp/lab.log 2>&1 &
lab=$!
LAB_PID=$lab python3 - <<'PY'
import os, time, urllib.error, urllib.request
deadline = time.time() + 600
while True:
    try:
        code = urllib.request.urlopen("http://127.0.0.1:8899/lab?token=freshtoken", timeout=5).status
        break
    except (urllib.error.URLError, ConnectionError, OSError):
        if time.time() > deadline or not os.path.exists(f"/proc/{os.environ['LAB_PID']}"):
            print(open("/tmp/lab.log").read()[-3000:]); raise
        time.sleep(0.5)
try:
    urllib.request.urlopen("http://127.0.0.1:8899/api/contents", timeout=5)
    refused = False
except urllib.error.HTTPError as error:
    refused = error.code == 403
print(f"LAB-ANSWERS {code} WITHOUT-TOKEN-REFUSED {refused}")
PY
kill -TERM "$lab"; wait "$lab" || true  # SIGINT would make Jupyter ask for a confirmation
say "lab stopped; processes in this namespace besides this shell: $(( $(ls /proc | grep -c '^[0-9]') - 3 ))"

# 2. Lesson 01's notebook, re-executed with nbval, on the packaged PostgreSQL and Valkey.
failed=0
if .venv/bin/python -m pytest -p no:randomly -n 0 -q -o addopts="-p no:cacheprovider -p celerylab.testing.plugin -p celerylab.testing.nbval_plugin --nbval-cell-timeout=300" notebooks/pt/01_retries.ipynb; then
  say "LESSON-01 OK"
else
  say "LESSON-01 FAILED"; failed=1
fi

# 3. The fast lane (-rs: every skip with its reason, in the summary the caller reads).
if python3 run.py test -m "not live" -n 2 -q -rfEs; then
  say "FAST-LANE OK"
else
  say "FAST-LANE FAILED"; failed=1
fi
exit "$failed"
