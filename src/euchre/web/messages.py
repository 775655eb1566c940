"""The protocol's messages as pydantic models (docs/protocol.md).

The HTTP request bodies (validated by FastAPI), the HTTP error answer, and the
messages a client sends on the WebSocket: a union told apart by ``type``
(``hello``, ``action``, ``hint``, ``ping``), each with exactly its fields and
their types (``extra="forbid", strict=True``), like the HTTP bodies. A message
that does not fit is refused with ``bad_message``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .tables import TableError

__all__ = [
    "MESSAGE_TYPES",
    "ActionMessage",
    "ClientMessage",
    "CreateTable",
    "ErrorBody",
    "ErrorDetail",
    "HelloMessage",
    "HintMessage",
    "JoinSeat",
    "PingMessage",
    "RematchTable",
    "StartTable",
    "describe_errors",
    "parse_client_message",
]


# -- HTTP ------------------------------------------------------------------------------------


class JoinSeat(BaseModel):
    """``POST /api/tables/{id}/join``; also the ``player`` of ``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int
    name: str


class CreateTable(BaseModel):
    """``POST /api/tables``: the rules (``variant`` and options), bot levels, a name;
    ``bot_seats``: the seats that are bots from the start; ``player``: the creator's
    seat, taken at once (the creator is then the host: only they start the table)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rules: dict[str, Any] = {}
    bots: list[str | None] | None = None
    name: str | None = None
    bot_seats: list[int] | None = None
    player: JoinSeat | None = None


class StartTable(BaseModel):
    """``POST /api/tables/{id}/start``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str


class RematchTable(BaseModel):
    """``POST /api/tables/{id}/rematch``: a seat token of the finished table."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: str


class ErrorDetail(BaseModel):
    """The ``error`` of an HTTP error answer: a protocol code and a message."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every HTTP error answer: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


def describe_errors(errors: Sequence[Any], whole: str = "body") -> str:
    """The first few pydantic validation errors as one line: ``where: what; ...``
    (``whole`` names the input itself; a leading ``body`` is left out)."""
    parts = []
    for e in errors[:3]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        parts.append(f"{where or whole}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


# -- WebSocket: client to server --------------------------------------------------------------


class HelloMessage(BaseModel):
    """``hello``: take the seat of ``token`` on this socket (null: watch as a spectator)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["hello"]
    token: str | None


class ActionMessage(BaseModel):
    """``action``: the seat of ``token`` does ``action`` on the state numbered ``seq``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["action"]
    token: str
    action: str
    seq: int


class HintMessage(BaseModel):
    """``hint``: the search bot's suggestions for the seat of ``token``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["hint"]
    token: str


class PingMessage(BaseModel):
    """``ping``: answered ``pong``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["ping"]


#: A message a client may send on the WebSocket, told apart by its ``type``.
ClientMessage = Annotated[
    HelloMessage | ActionMessage | HintMessage | PingMessage, Field(discriminator="type")
]
#: The message types, in the order the protocol lists them.
MESSAGE_TYPES: Final = ("hello", "action", "hint", "ping")

_CLIENT_MESSAGE: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)


def parse_client_message(data: object) -> HelloMessage | ActionMessage | HintMessage | PingMessage:
    """The message a client sent (``data``: its JSON, parsed); TableError
    ``bad_message`` saying what is wrong unless it is one of the protocol's."""
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str):
        raise TableError("bad_message", 'a message is a JSON object with a string "type"')
    if kind not in MESSAGE_TYPES:
        raise TableError(
            "bad_message", f"unknown type {kind!r} (want one of {', '.join(MESSAGE_TYPES)})"
        )
    raise TableError("bad_message", describe_errors(errors, whole=kind))
