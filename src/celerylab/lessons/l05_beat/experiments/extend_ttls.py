"""Two locks on a stack's Redis renewed with `extend(timeout)` once a second: redis-py's script adds, RedBeat's sets."""
import time
from dataclasses import dataclass

import redis
from redbeat.schedulers import LUA_EXTEND_TO_SCRIPT


@dataclass
class ExtendTtls:
    redis_py: float  # seconds of TTL left with redis-py's extend (it adds `timeout` to what is left)
    redbeat: float   # with the script RedBeat installs in beat_init (it sets the TTL to `timeout`)


def extend_ttls(stack, ticks: int = 3, timeout: int = 5) -> ExtendTtls:
    client = redis.Redis.from_url(stack.broker.url)
    try:
        locks = {"redis_py": client.lock(f"{stack.namespace}extend-demo:redis-py", timeout=timeout),
                 "redbeat": client.lock(f"{stack.namespace}extend-demo:redbeat", timeout=timeout)}
        locks["redbeat"].lua_extend = client.register_script(LUA_EXTEND_TO_SCRIPT)  # what RedBeat does
        for lock in locks.values():
            lock.acquire()
        for _ in range(ticks):  # a Beat's ticks, 1 s apart, each renewing its lock
            time.sleep(1.0)
            for lock in locks.values():
                lock.extend(timeout)
        ttls = {name: client.pttl(lock.name) / 1000 for name, lock in locks.items()}
        for lock in locks.values():
            lock.release()
        return ExtendTtls(**ttls)
    finally:
        client.close()
