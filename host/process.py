"""`python -m host` / `nib-host`: the host process exactly as the contract's section 1.

Exit codes: 0 clean stop (SIGTERM, SIGINT, host.shutdown, end of standard input; with
--stdio, once the client has left and the turns it started have ended);
2 bad start (no token, bad arguments); 3 database newer than this host (untouched);
4 storage unusable (folder not writable, not a database, damaged, read-only, disk full);
5 cannot listen; 6 another host is using the data folder.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from host.config import RedactingFilter, Secrets, load_settings
from host.core import HostCore
from host.listening import ListenError, listening_socket
from host.protocol import PROTOCOL_VERSION, SCHEMA_VERSION
from host.protocol.appinfo import TOKEN_ENV, default_data_dir
from host.protocol.models import ReadyLine
from host.store.db import DB_FILENAME, SchemaTooNew, StorageError
from host.store.errors import StorageFailure
from host.store.lock import FolderInUse, FolderLock

if TYPE_CHECKING:
    import socket

EXIT_OK, EXIT_USAGE, EXIT_SCHEMA_TOO_NEW, EXIT_STORAGE, EXIT_LISTEN = 0, 2, 3, 4, 5
EXIT_IN_USE = 6

log = logging.getLogger("host")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="nib-host", description="The Nib host-core process.")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--socket", help="the Unix socket path to listen on")
    where.add_argument(
        "--stdio",
        action="store_true",
        help="serve one client over standard input and output (e.g. through ssh)",
    )
    parser.add_argument("--data-dir", type=Path, default=None, help="where nib.sqlite3 lives")
    where.add_argument(
        "--version",
        action="store_true",
        help="print the version and exit (e.g. to check that ssh finds nib-host)",
    )
    parser.add_argument(
        "--log-level", default=os.environ.get("NIB_LOG_LEVEL", "INFO"), help="DEBUG, INFO, ..."
    )
    return parser.parse_args(list(argv))


def fail(code: int, reason: str) -> int:
    print(f"nib-host: {reason}", file=sys.stderr, flush=True)
    return code


PRIVATE_FILES = ("nib.sqlite3", "nib.sqlite3-wal", "nib.sqlite3-shm", "host.log", "host.lock")


def private_folder(data_dir: Path) -> None:
    """Files the host makes are the user's alone (0600); the data folder is created 0700,
    and the default one is made 0700 if an older version left it open. Files an older
    version left readable by others are made 0600."""
    os.umask(0o077)
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    if data_dir.resolve() == default_data_dir().resolve():
        with contextlib.suppress(OSError):
            data_dir.chmod(0o700)
    for entry in os.scandir(data_dir):  # one listing; no glob patterns to compile
        base, _, suffix = entry.name.rpartition(".")
        ours = entry.name in PRIVATE_FILES or (base in PRIVATE_FILES and suffix.isdigit())
        with contextlib.suppress(OSError):
            if ours and entry.is_file() and entry.stat().st_mode & 0o077:
                os.chmod(entry.path, 0o600)


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_MAX_BYTES, LOG_BACKUPS = 1_000_000, 2


def setup_logging(level: str, data_dir: Path, keys: Secrets) -> None:
    """To stderr (the app's log) and to host.log. Until `rotate_log` (after the ready
    line) host.log is written by a plain file handler: the rotating one's module imports
    pickle and queue, which answering the first requests does not need."""
    root = logging.getLogger()
    root.setLevel(level.upper())
    fmt = logging.Formatter(LOG_FORMAT)
    secrets = RedactingFilter(keys)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(fmt)
    stderr.addFilter(secrets)
    root.addHandler(stderr)
    with contextlib.suppress(OSError):
        file = logging.FileHandler(data_dir / "host.log", encoding="utf-8")
        file.setFormatter(fmt)
        file.addFilter(secrets)
        root.addHandler(file)


def rotate_log() -> None:
    """host.log's plain handler becomes a rotating one (at most three files of 1 MB)."""
    import logging.handlers

    root = logging.getLogger()
    for plain in [h for h in root.handlers if type(h) is logging.FileHandler]:
        with contextlib.suppress(OSError):
            rotating = logging.handlers.RotatingFileHandler(
                plain.baseFilename,
                maxBytes=LOG_MAX_BYTES,
                backupCount=LOG_BACKUPS,
                encoding="utf-8",
            )
            rotating.setFormatter(plain.formatter)
            for kept in plain.filters:
                rotating.addFilter(kept)
            root.addHandler(rotating)
            root.removeHandler(plain)
            plain.close()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.version:
        from host.protocol.appinfo import app_version

        print(f"nib-host {app_version()} (protocol {PROTOCOL_VERSION})")
        return EXIT_OK
    token = os.environ.get(TOKEN_ENV, "")
    if not token.strip() and not args.stdio:
        return fail(EXIT_USAGE, f"{TOKEN_ENV} is not set; the host refuses to start without it")
    data_dir: Path = args.data_dir or default_data_dir()
    if str(args.log_level).upper() not in logging.getLevelNamesMapping():
        return fail(EXIT_USAGE, f"unknown log level {args.log_level!r}")

    try:
        private_folder(data_dir)
    except OSError as exc:
        return fail(EXIT_STORAGE, f"cannot create data directory {data_dir}: {exc.strerror}")
    lock = FolderLock(data_dir)
    try:
        lock.acquire()
    except FolderInUse as exc:
        if not args.stdio:
            return fail(EXIT_IN_USE, str(exc))
        from host.joining import join  # a new link to a host that outlived the last one

        try:
            joined = join(data_dir, FolderInUse, lock.acquire)
        except FolderInUse as still:
            return fail(EXIT_IN_USE, str(still))
        except OSError as failed:
            return fail(EXIT_STORAGE, f"cannot lock {data_dir}: {failed.strerror}")
        if joined is not None:
            return joined
    except OSError as exc:
        return fail(EXIT_STORAGE, f"cannot lock {data_dir}: {exc.strerror}")
    secrets = Secrets()
    try:
        core = HostCore(data_dir, secrets=secrets, services_later=True)
    except SchemaTooNew as exc:
        return fail(EXIT_SCHEMA_TOO_NEW, str(exc))
    except StorageError as exc:
        return fail(EXIT_STORAGE, str(exc))
    except StorageFailure as exc:  # the first writes after opening (ending old turns)
        reason = exc.reason or f"SQLite reported {exc}"
        return fail(EXIT_STORAGE, f"cannot use {data_dir / DB_FILENAME}: {reason}")
    setup_logging(args.log_level, data_dir, secrets)
    with contextlib.suppress(Exception):  # the key is hidden from the log from the start
        secrets.remember(load_settings(data_dir))
    # every exception nobody caught reaches host.log with its traceback
    sys.excepthook = lambda kind, value, tb: log.critical(
        "uncaught exception", exc_info=(kind, value, tb)
    )
    if core.interrupted_turns:
        log.info("ended %d turn(s) left running by the last host", core.interrupted_turns)
    try:
        listening: socket.socket | None = None
        if not args.stdio:
            try:
                listening = _listen(args.socket)
            except ListenError as exc:
                return fail(EXIT_LISTEN, str(exc))
        return _serve(core, token, listening)
    finally:
        core.close()


def _listen(path: str) -> socket.socket:
    """Listen at `path` and write the ready line, before asyncio loads: the socket
    listens, and the kernel keeps a client's first request until the loop reads it
    (`host.listening`). A SIGTERM or SIGINT until the loop takes them is kept."""
    sock = listening_socket(path)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _stop_early)
    ready = ReadyLine(
        socket=path,
        pid=os.getpid(),
        protocol_version=PROTOCOL_VERSION,
        schema_version=SCHEMA_VERSION,
    )
    sys.stdout.write(ready.model_dump_json(by_alias=True) + "\n")
    sys.stdout.flush()
    log.info("listening on %s", path)
    return sock


_stopped_early: list[int] = []  # SIGTERM or SIGINT before the event loop took them


def _stop_early(signum: int, _frame: object) -> None:
    _stopped_early.append(signum)


def _serve(core: HostCore, token: str, listening: socket.socket | None) -> int:
    """With --stdio (`listening` None) and no token set, whoever holds the pipes was let
    in by ssh: host.hello is still required, its token is not checked."""
    import asyncio

    return asyncio.run(_run(core, token, listening))


async def _run(core: HostCore, token: str, listening: socket.socket | None) -> int:
    """Serve until SIGTERM/SIGINT, host.shutdown, or the end of standard input (with a
    socket) or of the one client (with --stdio)."""
    import asyncio

    from host.handlers import dispatcher
    from host.server import RpcServer

    loop = asyncio.get_running_loop()
    loop.set_exception_handler(
        lambda _loop, context: log.error(
            "uncaught in the event loop: %s",
            context.get("message"),
            exc_info=context.get("exception"),
        )
    )
    stop = asyncio.Event()
    server = RpcServer(token, dispatcher(core))
    core.publisher.subscribe(server.broadcast, clients=True)

    def shutdown_requested() -> None:
        loop.call_soon(stop.set)  # after the answer to host.shutdown is written

    core.on_shutdown_requested = shutdown_requested
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    if _stopped_early:
        stop.set()

    joinable: RpcServer | None = None
    if listening is None:
        from host.joining import offer

        client = asyncio.ensure_future(server.serve_stdio())
        # the client (an ssh link that dropped) may come back: a new `nib-host --stdio`
        # joins this host through its folder's socket while it runs (host/joining.py)
        sock, join_token = offer(core.data_dir)
        joinable = RpcServer(join_token, server.dispatcher)
        core.publisher.subscribe(joinable.broadcast, clients=True)
        await joinable.serve_socket(sock)

        async def client_left(joined: RpcServer) -> None:
            # this host stops once its turns have ended and no link is left
            while True:
                await core.runtime.finish_running()
                if not joined.connection_count:
                    stop.set()
                    return
                await joined.all_gone()

        client.add_done_callback(lambda _done: asyncio.ensure_future(client_left(joinable)))
        log.info("serving one client over standard input and output")
    else:
        await server.serve_socket(listening)
        # End of standard input means the parent is gone.
        stdin_fd = sys.stdin.fileno() if sys.stdin is not None else -1

        def on_stdin() -> None:
            try:
                data = os.read(stdin_fd, 65536)
            except OSError:
                data = b""
            if not data:
                loop.remove_reader(stdin_fd)
                stop.set()

        if stdin_fd >= 0:
            with contextlib.suppress(OSError, ValueError, PermissionError):
                loop.add_reader(stdin_fd, on_stdin)

    # Before the loop reads the first request: a client that connected at the ready
    # line is answered once these are loaded, while it makes its own start.
    rotate_log()
    core.begin()
    # what start-up made lives as long as the host: the collector's full passes need not
    # walk it again (a pass is a pause of every client's answers); the collector, paused
    # while `python -m host` imported, runs again from here
    gc.freeze()
    gc.enable()
    await stop.wait()
    log.info("stopping")
    await core.end()
    server.close()
    if joinable is not None:
        from host.joining import withdraw

        joinable.close()
        withdraw(core.data_dir)
    return EXIT_OK
