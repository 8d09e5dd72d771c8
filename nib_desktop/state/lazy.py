"""The state's events and intents, imported when first used rather than when a view is.

The intents are about 50 classes and the events dozens (`Record`s and named tuples,
each made in a fraction of a millisecond, but many). Nothing before the
window's first frame sends an intent or applies an event, so the views import them
through this module, and they load at the first use (a key pressed, the host
connected). Type checkers see the real modules."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import TYPE_CHECKING


def lazy_module(name: str) -> ModuleType:
    """`name`, already imported or executed at its first attribute read."""
    held = sys.modules.get(name)
    if held is not None:
        return held
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:  # as an import would: `package.child` reaches it
        setattr(importlib.import_module(parent), child, module)
    loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from nib_desktop.state import events, intents
else:
    events = lazy_module("nib_desktop.state.events")
    intents = lazy_module("nib_desktop.state.intents")

__all__ = ["events", "intents", "lazy_module"]
