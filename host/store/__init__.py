"""SQLite storage through apsw: connections, pragmas and the migrations."""
