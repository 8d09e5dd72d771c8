"""ADR 0312: the session-scoped checklist written by the TodoWrite tool."""
