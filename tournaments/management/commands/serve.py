"""The event server (``bin/serve`` runs it after set-up): granian on every interface,
the hall address and a QR code of the console printed, backups on a timer.

granian reads each request whole in its own I/O threads before a Python thread sees
it, and writes answers out the same way, so a phone trickling its request in on a weak
Wi-Fi edge holds no worker (docs/performance.md, "Slow clients").
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.db import connections
from django.utils.translation import gettext as _

from tournaments.common.hall import hall_addresses, qr_code
from tournaments.core.backup import Timer
from tournaments.core.reads import queries
from tournaments.management.base import TranslatedCommand


def hall_url(address: str, port: int, https: bool) -> str:
    scheme = "https" if https else "http"
    default = 443 if https else 80
    host = f"[{address}]" if ":" in address else address
    return f"{scheme}://{host}" + ("" if port == default else f":{port}")


# More open events than this is a test database, not a hall: the console lists them all.
EVENTS_LISTED = 5


class Command(TranslatedCommand):
    help = "Run the event server (granian) on the hall network; see README."

    def add_arguments(self, parser: CommandParser) -> None:
        env = os.environ.get
        parser.add_argument("--port", type=int, default=int(env("PORT", "8000")))
        parser.add_argument("--bind", default=env("BIND", "0.0.0.0"))
        parser.add_argument("--workers", type=int, default=int(env("WEB_WORKERS", "2")))
        parser.add_argument("--threads", type=int, default=int(env("WEB_THREADS", "4")))
        parser.add_argument("--tls-cert", default=env("TLS_CERT", ""))
        parser.add_argument("--tls-key", default=env("TLS_KEY", ""))

    def handle(self, *args: object, **options: Any) -> None:
        if settings.DEBUG:
            raise CommandError(_("The event server runs with DEBUG=0 (bin/serve sets it)."))
        port = int(options["port"])
        cert, key = str(options["tls_cert"]), str(options["tls_key"])
        if bool(cert) != bool(key):
            raise CommandError(_("TLS needs both TLS_CERT and TLS_KEY."))
        for path in filter(None, (cert, key)):
            if not Path(path).is_file():
                raise CommandError(_("%(path)s does not exist.") % {"path": path})
        https = bool(cert)
        if https and not settings.HTTPS:
            raise CommandError(_("With a certificate set HTTPS=1 (bin/serve does)."))
        if settings.HTTPS and not https and not settings.TRUSTED_PROXIES:
            raise CommandError(
                _(
                    "HTTPS is on, but there is no certificate (TLS_CERT, TLS_KEY) and no TLS "
                    "proxy (TRUSTED_PROXIES): over plain HTTP nobody could sign in. Set one, "
                    "or HTTPS=0 for a hall's plain-HTTP network."
                )
            )

        addresses = hall_addresses()
        hall = os.environ.get("HALL_ADDRESS") or (addresses[0] if addresses else "")
        env = dict(os.environ)
        if not env.get("HALL_URL") and hall:
            env["HALL_URL"] = hall_url(hall, port, https)
        self.banner(env.get("HALL_URL", ""), addresses, port, https)

        command = [
            str(Path(sys.executable).parent / "granian"),
            "--interface",
            "wsgi",
            "--host",
            str(options["bind"]),
            "--port",
            str(port),
            "--workers",
            str(options["workers"]),
            "--blocking-threads",
            str(options["threads"]),
            "--backlog",
            "4096",
            "--log-level",
            "warning",
        ]
        if https:
            command += ["--ssl-certificate", cert, "--ssl-keyfile", key]
        command.append("snowman.wsgi:application")

        timer = Timer(settings.BACKUP_MINUTES).start() if settings.BACKUP_MINUTES > 0 else None
        connections.close_all()
        server = subprocess.Popen(command, env=env)

        def forward(signum: int, _frame: object) -> None:
            server.send_signal(signum)

        signal.signal(signal.SIGTERM, forward)
        signal.signal(signal.SIGINT, forward)
        try:
            code = server.wait()
        finally:
            if timer:
                timer.stop()
        if code not in (0, -signal.SIGTERM, -signal.SIGINT):
            raise CommandError(_("granian stopped with status %(code)s.") % {"code": code})

    def players_banner(self, base: str) -> None:
        """Where the players look: each open event's page (their seat, clock and standings
        on their phones) and its projector, at the address the console was printed with."""
        write = self.stdout.write
        events = list(queries.open_tournaments(EVENTS_LISTED))
        for t in events:
            write(f"  {t.name}:")
            write(
                _("    Players' phones:      %(url)s (QR on the projector and sheets)")
                % {"url": f"{base}/e/{t.slug}/"}
            )
            write(
                _("    Projector:            %(url)s (the hall's screen)")
                % {"url": f"{base}/p/{t.slug}/"}
            )
        if not events:
            write(
                _("  Players' phones:        %(url)s (each event's page is /e/<event>/)")
                % {"url": f"{base}/"}
            )
            write(
                _("  Projector:              %(url)s (the console links it)")
                % {"url": f"{base}/p/<event>/"}
            )

    def banner(self, url: str, addresses: list[str], port: int, https: bool) -> None:
        write = self.stdout.write
        write("")
        write(
            _("Snowman event server (HTTPS)")
            if https
            else _("Snowman event server (plain HTTP on the hall network)")
        )
        if url:
            write(_("  Console for this hall:  %(url)s") % {"url": f"{url}/director/"})
            write(_("  Tablet links and table-card QR codes use this address."))
        else:
            write(_("  No network address found: only this laptop can reach the server."))
        for address in addresses:
            write(
                _("  Also reachable at:      %(url)s")
                % {"url": f"{hall_url(address, port, https)}/"}
            )
        local = hall_url("127.0.0.1", port, https)
        write(_("  On this laptop:         %(url)s (tablets cannot use it)") % {"url": f"{local}/"})
        self.players_banner(url or local)
        if url:
            write(_("  Scan to open the console on a phone or tablet:"))
            qr = qr_code(f"{url}/director/")
            qr.terminal(out=self.stdout._out, compact=True)  # type: ignore[arg-type]
        if settings.BACKUP_MINUTES > 0:
            write(
                _("  Backups every %(minutes)s min and at each finalize: %(dir)s")
                % {"minutes": f"{settings.BACKUP_MINUTES:g}", "dir": settings.BACKUP_DIR}
            )
        write(_("  Stop with Ctrl+C."))
        write("")
        self.stdout.flush()
