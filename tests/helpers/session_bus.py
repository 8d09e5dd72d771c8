"""A real D-Bus session bus for the tests (`dbus-daemon --session`), and on it a test
notification service (org.freedesktop.Notifications, as the freedesktop spec has it)
that records every call, can invoke a notification's action, and records the
launcher's `com.canonical.Unity.LauncherEntry` Update signals. Written on jeepney."""

from __future__ import annotations

import contextlib
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from jeepney import DBusAddress, MatchRule, MessageType, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

PATH = "/org/freedesktop/Notifications"
NAME = "org.freedesktop.Notifications"


@contextlib.contextmanager
def session_bus(folder: Path) -> Iterator[str]:
    """A private session bus; its address."""
    daemon = shutil.which("dbus-daemon")
    if daemon is None:
        pytest.skip("dbus-daemon is not installed (Debian package dbus)")
    socket = folder / "bus"
    proc = subprocess.Popen(
        [
            daemon,
            "--session",
            "--nofork",
            "--nopidfile",
            f"--address=unix:path={socket}",
            "--print-address=1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        address = proc.stdout.readline().strip()
        if not address:
            pytest.fail("dbus-daemon did not start")
        yield address
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()


@dataclass
class Notification:
    id: int
    replaces: int
    summary: str
    body: str
    actions: list[str]


@dataclass
class NotificationServer:
    """Run with `serve(address)` as a context manager. `hang`: never answer (a service
    that hangs). Records are read under `lock`; `wait(condition)` waits on them."""

    capabilities: tuple[str, ...] = ("actions", "body")
    hang: bool = False
    notified: list[Notification] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)
    launcher: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)
    _outbox: queue.Queue[Any] = field(default_factory=queue.Queue)
    _stop: threading.Event = field(default_factory=threading.Event)
    _next: int = 0

    @contextlib.contextmanager
    def serve(self, address: str) -> Iterator[NotificationServer]:
        conn = open_dbus_connection(address)
        conn.send_and_get_reply(message_bus.RequestName(NAME))
        rule = MatchRule(type="signal", interface="com.canonical.Unity.LauncherEntry")
        conn.send_and_get_reply(message_bus.AddMatch(rule))
        thread = threading.Thread(target=self._loop, args=(conn,), daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._stop.set()
            thread.join(10)
            conn.close()

    def wait(self, condition: Callable[[], object], timeout: float = 15.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        with self.lock:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"timed out waiting for {what or 'the bus'}")
                self.lock.wait(left)

    def invoke(self, notification: int, key: str) -> None:
        """The user chose the action `key` ("default": the notification itself)."""
        address = DBusAddress(PATH, interface=NAME)
        self._outbox.put(new_signal(address, "ActionInvoked", "us", (notification, key)))

    def _loop(self, conn: Any) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(queue.Empty):
                while True:
                    conn.send(self._outbox.get_nowait())
            try:
                message = conn.receive(timeout=0.05)
            except TimeoutError:
                continue
            header = message.header
            member = header.fields.get(3)  # MEMBER
            if header.message_type == MessageType.signal and member == "Update":
                with self.lock:
                    props = {key: value[1] for key, value in message.body[1].items()}
                    self.launcher.append(props)
                    self.lock.notify_all()
                continue
            if header.message_type != MessageType.method_call or self.hang:
                continue
            if member == "GetCapabilities":
                conn.send(new_method_return(message, "as", (list(self.capabilities),)))
            elif member == "GetServerInformation":
                conn.send(new_method_return(message, "ssss", ("test", "nib", "1", "1.2")))
            elif member == "Notify":
                _app, replaces, _icon, summary, body, actions, _hints, _timeout = message.body
                with self.lock:
                    if replaces:
                        number = replaces
                    else:
                        self._next += 1
                        number = self._next
                    self.notified.append(
                        Notification(number, replaces, summary, body, list(actions))
                    )
                    self.lock.notify_all()
                conn.send(new_method_return(message, "u", (number,)))
            elif member == "CloseNotification":
                (number,) = message.body
                with self.lock:
                    self.closed.append(number)
                    self.lock.notify_all()
                conn.send(new_method_return(message))
                address = DBusAddress(PATH, interface=NAME)
                conn.send(new_signal(address, "NotificationClosed", "uu", (number, 3)))
