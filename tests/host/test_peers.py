"""The typed peers match the contract's one table, entry for entry, and an implementation
missing an entry is refused when it is bound."""

from __future__ import annotations

import typing

import pytest

from host.protocol import methods as rpc, models as m, peers


def declared(interface: type) -> dict[str, dict[str, typing.Any]]:
    return {
        name: typing.get_type_hints(getattr(interface, name), vars(peers) | vars(m))
        for name in vars(interface)
        if not name.startswith("_")
    }


def test_the_host_interface_is_the_table_of_requests() -> None:
    methods = declared(peers.HostMethods)
    table = {peers.attribute(n): x for n, x in rpc.METHODS.items() if n != rpc.HELLO.name}
    assert set(methods) == set(table)
    for name, hints in methods.items():
        assert hints["params"] is table[name].params, name
        assert typing.get_args(hints["return"])[0] is table[name].result, name


def test_the_client_interface_is_the_table_of_notifications() -> None:
    notes = declared(peers.ClientNotifications)
    table = {peers.attribute(n): x for n, x in rpc.NOTIFICATIONS.items()}
    assert set(notes) == set(table)
    for name, hints in notes.items():
        assert hints["params"] is table[name].params, name


def test_a_peer_missing_an_entry_is_refused_when_bound() -> None:
    class Partial:
        def todos_changed(self, params: m.TodoSnapshot) -> None:
            pass

    with pytest.raises(ValueError, match=r"Partial has no route for .*turns\.changed"):
        peers.routes(Partial())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"no handler for .*sessions\.create"):
        peers.handlers(Partial())  # type: ignore[arg-type]
