"""The typed peers match the contract's one table, entry for entry, and an implementation
missing an entry is refused when it is bound."""

from __future__ import annotations

import typing

import pytest

from host.protocol import (
    client_peer,
    methods as rpc,
    models as m,
    peers,
    plain_methods,
    plain_models,
)


def declared(interface: type, *spaces: object) -> dict[str, dict[str, typing.Any]]:
    names = {k: v for space in spaces for k, v in vars(space).items()}
    return {
        name: typing.get_type_hints(getattr(interface, name), names)
        for name in vars(interface)
        if not name.startswith("_")
    }


def test_the_host_interface_is_the_table_of_requests() -> None:
    methods = declared(peers.HostMethods, peers, m)
    table = {peers.attribute(n): x for n, x in rpc.METHODS.items() if n != rpc.HELLO.name}
    assert set(methods) == set(table)
    for name, hints in methods.items():
        assert hints["params"] is table[name].params, name
        assert typing.get_args(hints["return"])[0] is table[name].result, name


def test_the_client_interface_is_the_table_of_notifications() -> None:
    notes = declared(client_peer.ClientNotifications, client_peer, plain_models)
    table = {peers.attribute(n): x for n, x in plain_methods.NOTIFICATIONS.items()}
    assert set(notes) == set(table)
    for name, hints in notes.items():
        assert hints["params"] is table[name].params, name


def test_a_peer_missing_an_entry_is_refused_when_bound() -> None:
    class Partial:
        def todos_changed(self, params: plain_models.TodoSnapshot) -> None:
            pass

    with pytest.raises(ValueError, match=r"Partial has no route for .*turns\.changed"):
        client_peer.routes(Partial())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"no handler for .*sessions\.create"):
        peers.handlers(Partial())  # type: ignore[arg-type]
