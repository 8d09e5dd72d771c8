"""Sessions on external agents that speak the Agent Client Protocol (contract section 15).

The SDK (`acp`) is imported only once an agent is used: the host's start does not pay
for it."""
