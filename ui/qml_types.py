"""Every Python type QML sees is registered under `import Nib` by its @QmlElement
decorator when its module is imported; importing this module imports them all."""

from __future__ import annotations

import ui.sweep  # SweepText
import ui.views.app_views  # AppViews, which imports every view and row model

__all__ = ["ui"]
