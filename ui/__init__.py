"""The renderer: QML and the Python view models it binds to. It never imports `host`,
apsw or QtNetwork; what it knows of the host comes through the controller's signals."""
