"""A plugin that cannot be imported: the host must report it and go on."""

raise ImportError("this plugin is broken on purpose")
