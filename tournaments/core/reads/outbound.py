"""Where the server itself may send a request: the hall's end of publishing results
(``services.publish``) and of fetching the signed registration list
(``views.director.registrations``) open an address a director typed.

On a hall laptop (one club) the director runs the machine, and the club site may well be
on the hall's own network. On a shared site (several clubs) the directors are not the
site's operator: an address of the site's own network (loopback, private, link-local: a
cloud's metadata service) would let any of them make the server ask its neighbours and
read what they answer (a refusal quotes it). There, only public addresses are opened."""

from __future__ import annotations

import ipaddress
import socket
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

from tournaments.core.models.event import Club


def refused(url: str) -> str | None:
    """Why the server will not send a request to ``url``; None when it may."""
    if Club.objects.count() < 2:
        return None
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port or 443
        found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (ValueError, OSError, UnicodeError):
        return None  # an address that does not resolve reaches nothing either
    for *_rest, address in found:
        ip = ipaddress.ip_address(str(address[0]).split("%")[0])
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if not ip.is_global:
            return _(
                "%(host)s is an address of this site's own network: a shared site sends "
                "only to public addresses."
            ) % {"host": host}
    return None


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is followed only to an address the server may open: a public address
    answering "see 169.254.169.254" would otherwise lead the request past the check; and
    to another host without the bearer token."""

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        why = refused(newurl)
        if why is not None:
            raise urllib.error.URLError(why)
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and urlsplit(newurl).netloc != urlsplit(req.full_url).netloc:
            # The event's token (or list key) is the club site's, not another host's.
            new.headers.pop("Authorization", None)
        return new


def urlopen(request: urllib.request.Request, *, timeout: float) -> Any:
    """``urllib.request.urlopen`` for an address a director gave: refused (URLError, with
    the reason) where ``refused`` says so, at the first address and at every redirect."""
    why = refused(request.full_url)
    if why is not None:
        raise urllib.error.URLError(why)
    return urllib.request.build_opener(_CheckedRedirects).open(request, timeout=timeout)
