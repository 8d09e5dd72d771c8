"""The desktop's session bus (Linux), when there is one: the launcher's progress and
badge (`com.canonical.Unity.LauncherEntry`, read by KDE Plasma, the Ubuntu dock, Dash to
Dock and Plank) and desktop notifications (`org.freedesktop.Notifications`).

Everything is asynchronous on the app's loop and bounded in time: a bus or a service that
is absent, refuses or hangs costs the window nothing, and is not retried in a loop (a
service that failed is asked again only by the next notification)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import zlib
from collections.abc import Callable
from typing import Any

from host.protocol.appinfo import DESKTOP_ID

log = logging.getLogger(__name__)

CALL_TIMEOUT_S = 2.0
NOTIFICATIONS = "org.freedesktop.Notifications"
NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"
LAUNCHER_INTERFACE = "com.canonical.Unity.LauncherEntry"
LAUNCHER_PATH = f"/com/canonical/unity/launcherentry/{zlib.crc32(DESKTOP_ID.encode())}"
APP_URI = f"application://{DESKTOP_ID}.desktop"
APP_NAME = "Nib Desktop"


def bus_address() -> str | None:
    return os.environ.get("DBUS_SESSION_BUS_ADDRESS") or None


class DesktopBus:
    """One connection to the session bus; `None` from `open` when there is none."""

    def __init__(self, router: Any) -> None:
        self._router = router
        self._capabilities: tuple[str, ...] | None = None
        self._signals: asyncio.Queue[Any] = asyncio.Queue()
        self._listener: asyncio.Task[None] | None = None
        # what a signal must come from, and be about: the notification service's unique
        # name on the bus (asked again when a signal comes from another), and the ids
        # of the notifications this window made and that are not closed
        self._owner: str | None = None
        self._made: set[int] = set()
        self.on_action: Callable[[int, str], None] = lambda _id, _key: None
        self.on_closed: Callable[[int], None] = lambda _id: None

    @classmethod
    async def open(cls, address: str | None) -> DesktopBus | None:
        if address is None:
            return None
        try:
            from jeepney import MatchRule, message_bus
            from jeepney.io.asyncio import DBusRouter, Proxy, open_dbus_connection

            connection = await asyncio.wait_for(open_dbus_connection(address), CALL_TIMEOUT_S)
            router = DBusRouter(connection)
            await router.__aenter__()
            bus = cls(router)
            rule = MatchRule(type="signal", interface=NOTIFICATIONS, path=NOTIFICATIONS_PATH)
            router.filter(rule, queue=bus._signals, bufsize=100)
            await asyncio.wait_for(Proxy(message_bus, router).AddMatch(rule), CALL_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError, ImportError) as exc:
            log.info("no session bus for notifications and the launcher: %s", exc)
            return None
        except Exception as exc:  # a broken bus is not the window's problem
            log.info("the session bus cannot be used: %s: %s", type(exc).__name__, exc)
            return None
        bus._listener = asyncio.ensure_future(bus._listen())
        return bus

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        with contextlib.suppress(Exception):
            await self._router.__aexit__(None, None, None)

    async def _listen(self) -> None:
        while True:
            message = await self._signals.get()
            fields = message.header.fields
            member, sender, body = fields.get(3), fields.get(7), message.body  # MEMBER, SENDER
            try:
                if not await self._from_service(sender):
                    log.warning(
                        "a %s signal from %s, not the notification service, was ignored",
                        member,
                        sender,
                    )
                    continue
                notification = int(body[0])
                if notification not in self._made:
                    continue  # another application's notification, or one closed
                if member == "ActionInvoked":
                    self.on_action(notification, str(body[1]))
                elif member == "NotificationClosed":
                    self._made.discard(notification)
                    self.on_closed(notification)
            except Exception:
                log.exception("a notification's signal could not be handled")

    async def _from_service(self, sender: object) -> bool:
        """Whether a signal's sender is the current owner of the notification service's
        name (any other client of the bus may emit the same signal)."""
        if not isinstance(sender, str) or not sender:
            return False
        if sender == self._owner:
            return True
        from jeepney import message_bus
        from jeepney.io.asyncio import Proxy

        try:  # asked again: the service may have been started anew meanwhile
            reply = await asyncio.wait_for(
                Proxy(message_bus, self._router).GetNameOwner(NOTIFICATIONS), CALL_TIMEOUT_S
            )
            self._owner = str(reply[0])
        except Exception:
            self._owner = None
        return sender == self._owner

    # --- the launcher ------------------------------------------------------------------

    async def launcher(self, progress: float, visible: bool, urgent: bool, count: int) -> None:
        from jeepney import DBusAddress, new_signal

        properties = {
            "progress": ("d", progress),
            "progress-visible": ("b", visible),
            "urgent": ("b", urgent),
            "count": ("x", count),
            "count-visible": ("b", count > 0),
        }
        signal = new_signal(
            DBusAddress(LAUNCHER_PATH, interface=LAUNCHER_INTERFACE),
            "Update",
            "sa{sv}",
            (APP_URI, properties),
        )
        with contextlib.suppress(Exception):
            await self._router.send(signal)

    # --- notifications -----------------------------------------------------------------

    async def _call(self, method: str, signature: str = "", body: tuple[Any, ...] = ()) -> Any:
        from jeepney import DBusAddress, new_method_call

        address = DBusAddress(NOTIFICATIONS_PATH, bus_name=NOTIFICATIONS, interface=NOTIFICATIONS)
        reply = await asyncio.wait_for(
            self._router.send_and_get_reply(new_method_call(address, method, signature, body)),
            CALL_TIMEOUT_S,
        )
        from jeepney import MessageType

        if reply.header.message_type == MessageType.error:
            raise RuntimeError(f"{method}: {reply.body[0] if reply.body else 'an error'}")
        return reply.body

    async def capabilities(self) -> tuple[str, ...]:
        if self._capabilities is None:
            try:
                self._capabilities = tuple((await self._call("GetCapabilities"))[0])
            except Exception as exc:
                log.info("no notification service: %s", exc)
                return ()
        return self._capabilities

    async def notify(
        self, replaces: int, summary: str, body: str, actions: tuple[str, ...] = ()
    ) -> int | None:
        """Show or update (`replaces`) a notification; its id, or None when none shows."""
        caps = await self.capabilities()
        if not caps:
            return None
        shown_actions = list(actions) if "actions" in caps else []
        text = escape(body) if "body-markup" in caps else body
        hints = {"desktop-entry": ("s", DESKTOP_ID)}
        try:
            answer = await self._call(
                "Notify",
                "susssasa{sv}i",
                (APP_NAME, replaces, DESKTOP_ID, summary, text, shown_actions, hints, -1),
            )
        except Exception as exc:
            log.info("a notification could not be shown: %s", exc)
            self._capabilities = None  # asked again by the next one, not in a loop
            return None
        self._made.add(int(answer[0]))
        return int(answer[0])

    async def withdraw(self, notification: int) -> None:
        with contextlib.suppress(Exception):
            await self._call("CloseNotification", "u", (notification,))


def escape(text: str) -> str:
    """Plain text for a body the server reads as markup (the spec's subset of HTML)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
