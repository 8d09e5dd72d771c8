"""Nib host-core: storage, services, the agent runtime and the JSON-RPC endpoint."""

from importlib.metadata import PackageNotFoundError, version


def host_version() -> str:
    try:
        return version("nib-desktop")
    except PackageNotFoundError:
        return "0.0.0+source"
