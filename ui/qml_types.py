"""Every Python type QML sees is registered under `import Nib` by its @QmlElement
decorator when its module is imported; importing this module imports them all."""

from __future__ import annotations

from ui import models, sweep

TYPES = (
    models.TodoDockModel,
    models.TodoListModel,
    models.SessionListModel,
    models.TranscriptModel,
    sweep.SweepText,
)
