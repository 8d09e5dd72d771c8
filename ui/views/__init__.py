"""The views QML binds to: one small read-only facade per area of the window, each
reading the state (`nib_desktop.state`) and sending the user's intents."""
