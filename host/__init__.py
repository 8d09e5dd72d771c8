"""Nib host-core: storage, services, the agent runtime and the JSON-RPC endpoint."""
