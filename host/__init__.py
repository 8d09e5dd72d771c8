"""Nib host-core: storage, services, the agent runtime and the JSON-RPC endpoint."""

from functools import cache


@cache
def host_version() -> str:
    """The version from the package metadata (one place), read on first use."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nib-desktop")
    except PackageNotFoundError:
        return "0.0.0+source"
