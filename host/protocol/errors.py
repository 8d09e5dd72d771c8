"""JSON-RPC error codes of the contract (section 8) and one exception per code."""

from __future__ import annotations

from enum import IntEnum
from typing import Any, ClassVar


class ErrorCode(IntEnum):
    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    NOT_AUTHENTICATED = -32001
    PROTOCOL_VERSION = -32002
    SESSION_NOT_FOUND = -32010
    REMOTE_SESSION = -32011
    REMOTE_UNREACHABLE = -32012
    TURN_RUNNING = -32020
    TURN_NOT_FOUND = -32021
    APPROVAL_NOT_PENDING = -32030
    SETTINGS_UNUSABLE = -32040  # the project's: settings.json cannot be read or written
    AGENT_REFUSED = -32050  # the project's: the agent refused (section 17), in its words


class RpcError(Exception):
    """An error that travels over the wire as a JSON-RPC error object."""

    code: ClassVar[ErrorCode] = ErrorCode.INTERNAL_ERROR

    def __init__(self, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.data = data

    def to_wire(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": int(self.code), "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class ParseError(RpcError):
    code = ErrorCode.PARSE_ERROR


class InvalidRequest(RpcError):
    code = ErrorCode.INVALID_REQUEST


class MethodNotFound(RpcError):
    code = ErrorCode.METHOD_NOT_FOUND


class InvalidParams(RpcError):
    code = ErrorCode.INVALID_PARAMS


class InternalError(RpcError):
    code = ErrorCode.INTERNAL_ERROR


class NotAuthenticated(RpcError):
    code = ErrorCode.NOT_AUTHENTICATED


class ProtocolVersionError(RpcError):
    code = ErrorCode.PROTOCOL_VERSION


class SessionNotFound(RpcError):
    code = ErrorCode.SESSION_NOT_FOUND


class RemoteSession(RpcError):
    code = ErrorCode.REMOTE_SESSION


class RemoteUnreachable(RpcError):
    code = ErrorCode.REMOTE_UNREACHABLE


class TurnRunning(RpcError):
    code = ErrorCode.TURN_RUNNING


class TurnNotFound(RpcError):
    code = ErrorCode.TURN_NOT_FOUND


class ApprovalNotPending(RpcError):
    code = ErrorCode.APPROVAL_NOT_PENDING


class SettingsUnusable(RpcError):
    code = ErrorCode.SETTINGS_UNUSABLE


class AgentRefused(RpcError):
    code = ErrorCode.AGENT_REFUSED


_BY_CODE: dict[int, type[RpcError]] = {
    int(cls.code): cls
    for cls in (
        ParseError,
        InvalidRequest,
        MethodNotFound,
        InvalidParams,
        InternalError,
        NotAuthenticated,
        ProtocolVersionError,
        SessionNotFound,
        RemoteSession,
        RemoteUnreachable,
        TurnRunning,
        TurnNotFound,
        ApprovalNotPending,
        SettingsUnusable,
        AgentRefused,
    )
}


def error_from_wire(error: dict[str, Any]) -> RpcError:
    """The typed exception for a JSON-RPC error object received from a peer."""
    code = error.get("code")
    message = str(error.get("message", "unknown error"))
    cls = _BY_CODE.get(code) if isinstance(code, int) else None
    if cls is None:
        return RpcError(f"{message} (code {code})", error.get("data"))
    return cls(message, error.get("data"))
