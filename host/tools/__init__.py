"""Builtin tools, the execution context every call carries, and the registry."""
