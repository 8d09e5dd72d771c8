"""The window's state: frozen values, typed events and the one mutator. No Qt, no I/O,
nothing of the host; the Main role feeds it and the views read it."""
