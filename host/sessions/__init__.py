"""Sessions, turns and transcript messages."""
