"""The refusals every layer shares: a service refuses with one of these, a reader that
finds nothing with ``NotFound``, and a view answers each with its ``status``."""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal with a message for the person who asked; nothing was changed.

    ``status`` is the HTTP status a JSON endpoint answers it with: a well-formed request
    refused by the rules or the state of things is 422 (an invalid POST re-renders with
    422 too), a clash with another client 409, a body no client could send 400."""

    status = 422

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class Conflict(ServiceError):
    """The request clashes with what another client already recorded."""

    status = 409


class NotFound(ServiceError):
    """What the request names does not exist (an unknown table link)."""

    status = 404


class BadRequest(ServiceError):
    """A body no client of ours could have sent (not JSON, not a JSON object)."""

    status = 400
