"""Every Python type QML sees is registered under `import Nib` by its @QmlElement
decorator when its module is imported; importing this module imports them all."""

from __future__ import annotations

from ui import sweep
from ui.views import app, rows

TYPES = (app.AppViews, rows.TodoListModel, rows.SessionListModel, rows.TranscriptModel,
         sweep.SweepText)  # fmt: skip
