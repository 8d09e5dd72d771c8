"""The agent runtime: turns, providers and the builtin tools they may call."""
