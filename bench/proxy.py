"""HAProxy on the loopback in front of two app servers, as deployed (docs/deploy.md):
for tests/test_deploy.py and bench/clubs.py."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

HAPROXY = """
global
    maxconn 4096
defaults
    mode http
    timeout connect 5s
    timeout client 120s
    timeout server 120s
    # A health check waits its turn behind a burst, as the tablets' requests do: with
    # the default (2 s) both busy servers were marked down and the burst got 503s
    # (bench/clubs.py). A stopped server still fails its check at once (refused).
    timeout check 10s
    option forwardfor
frontend hall
    bind 127.0.0.1:{port}
    default_backend snowman
backend snowman
    balance roundrobin
    option httpchk
    http-check send meth GET uri /accounts/login/ ver HTTP/1.1 hdr Host snowman
    server one 127.0.0.1:{one} check
    server two 127.0.0.1:{two} check
"""


class Proxy:
    def __init__(self, directory: Path, port: int, one: int, two: int) -> None:
        self.config = directory / "haproxy.cfg"
        self.config.write_text(HAPROXY.format(port=port, one=one, two=two))
        self.port = port
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Proxy:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        # -db: stay in the foreground, so stopping the process stops the proxy.
        self.process = subprocess.Popen([binary, "-db", "-f", str(self.config)])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("haproxy did not start")

    def __exit__(self, *exc: object) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=20)
