"""JupyterHub for a class on one server: each learner a Unix user with their own lab and stack (celerylab_spawner),
accounts the instructor approves (NativeAuthenticator), idle servers stopped (jupyterhub-idle-culler).

Settings from the environment (defaults for /opt/celerylab, see README.md):
CELERYLAB_HUB_STATE (the hub's database and cookie secret), CELERYLAB_HUB_PORT (and _INTERNAL_PORT, _PROXY_API_PORT), CELERYLAB_HUB_ADMIN (the
instructor's account), CELERYLAB_HUB_COURSE (the course's checkout), CELERYLAB_HUB_CELERYLAB (the celerylab
command learners run), CELERYLAB_HUB_MEM_GB and CELERYLAB_HUB_CPUS (caps per learner), CELERYLAB_HUB_IDLE
(seconds before an idle server stops), CELERYLAB_HUB_API_TOKEN (a token for `celerylab collect --hub`).
"""
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

c = get_config()  # noqa: F821  (JupyterHub's config loader provides it)
env = os.environ.get
state = Path(env("CELERYLAB_HUB_STATE", "/var/lib/celerylab-hub"))
state.mkdir(parents=True, exist_ok=True, mode=0o700)

c.JupyterHub.bind_url = f"http://{env('CELERYLAB_HUB_IP', '')}:{env('CELERYLAB_HUB_PORT', '8000')}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{env('CELERYLAB_HUB_INTERNAL_PORT', '8081')}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{env('CELERYLAB_HUB_PROXY_API_PORT', '8001')}"
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
proxy = shutil.which("configurable-http-proxy") or "/opt/celerylab/node/node_modules/.bin/configurable-http-proxy"
c.ConfigurableHTTPProxy.command = [env("CELERYLAB_HUB_PROXY", proxy)]

# accounts: learners sign up, the instructor approves them at /hub/authorize
c.JupyterHub.authenticator_class = "native_login.CourseAuthenticator"  # NativeAuthenticator, its login page mended
admin = env("CELERYLAB_HUB_ADMIN", "prof")
c.Authenticator.admin_users = {admin}
c.Authenticator.allow_all = True  # every account NativeAuthenticator lets in: those the instructor approved
c.NativeAuthenticator.minimum_password_length = 8
c.NativeAuthenticator.check_common_password = True

# each learner: a Unix user clab-<name>, their copy of the course, their lab and stack, capped
c.JupyterHub.spawner_class = "celerylab_spawner.CourseSpawner"
c.CourseSpawner.course_checkout = env("CELERYLAB_HUB_COURSE", "/opt/celerylab/course")
c.CourseSpawner.celerylab = env("CELERYLAB_HUB_CELERYLAB", "/opt/celerylab/venv/bin/celerylab")
c.CourseSpawner.mem_bytes = int(float(env("CELERYLAB_HUB_MEM_GB", "2")) * 2**30)
c.CourseSpawner.cpu_cores = float(env("CELERYLAB_HUB_CPUS", "1"))
c.Spawner.start_timeout = 120  # a first start copies the course
c.Spawner.http_timeout = 90

services, roles = [], []
# idle servers stop (their kernels and stacks with them)
c.JupyterHub.services = services
c.JupyterHub.load_roles = roles
services.append({"name": "idle-culler", "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                                                    f"--timeout={env('CELERYLAB_HUB_IDLE', '3600')}"]})
roles.append({"name": "idle-culler", "services": ["idle-culler"],
              "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]})
# the instructor's tool: celerylab collect --hub URL --token TOKEN (and starting learners' servers)
token = env("CELERYLAB_HUB_API_TOKEN")
if token:
    services.append({"name": "celerylab-collect", "api_token": token})
    roles.append({"name": "celerylab-collect", "services": ["celerylab-collect"],
                  "scopes": ["admin:users", "admin:servers", "access:servers", "list:users", "read:users"]})
