"""The renderer: QML and the Python view models it binds to. It never imports `host`,
apsw or QtNetwork; what it knows of the host it reads from the window's state (through
its views) and it asks for anything by an intent."""
