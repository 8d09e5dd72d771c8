"""RACP: this host as the client of remote hosts (contract section 14)."""
