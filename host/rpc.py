"""The host's own part of serving the contract (`host.protocol.serving` serves it): its
hello, with the capabilities it advertises, and its failures in words, a storage failure
told as what it is and that nothing was written."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from host.protocol import errors, models as m
from host.protocol.methods import Method
from host.protocol.peers import Handler
from host.protocol.serving import Dispatcher, plain_hello
from host.store.errors import StorageFailure

log = logging.getLogger(__name__)

# what this host serves of its own sessions to a host that links to it (sections 14 and
# 19): the todo snapshot (14), agents and their controls (15, 17), checkpoints and changes
# (16), worktrees and attempts (18), import, rewind, rename, export, fork (20) and the
# project's `files.list` ("@" in a remote session)
CAPABILITIES = ("todos", "agents", "checkpoints", "worktrees", "sessions")
V1_ENV = "NIB_RACP_V1"  # set: advertise nothing, as a RACP v1 host (to test clients)


def advertised() -> tuple[str, ...]:
    return () if os.environ.get(V1_ENV) else CAPABILITIES


def hello() -> m.HelloResult:
    return plain_hello().model_copy(update={"capabilities": advertised()})


def host_dispatcher(
    handlers: Mapping[Method[Any, Any], Handler],
    waiting: Callable[[], Iterable[tuple[str, m.Wire]]] = tuple,
) -> Dispatcher:
    """`waiting`: what a client is told again as it connects (section 19)."""
    return Dispatcher(handlers, hello, as_rpc_error, waiting)


def as_rpc_error(method: Method[Any, Any], exc: Exception) -> errors.RpcError:
    if isinstance(exc, errors.RpcError):
        return exc
    storage = exc if isinstance(exc, StorageFailure) else None
    if storage is not None and storage.reason is not None:  # rolled back with its transaction
        log.error("%s failed in storage: %s", method.name, exc.__cause__ or exc)
        return errors.InternalError(f"{method.name} failed: {storage.reason}; nothing was written")
    log.exception("%s failed", method.name, exc_info=exc)
    kind = storage.kind if storage is not None else type(exc).__name__
    return errors.InternalError(f"{method.name} failed: {kind}")
