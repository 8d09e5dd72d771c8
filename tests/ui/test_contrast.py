"""Every text/background pair the window uses meets WCAG 2.2 contrast on both palettes,
computed from the live Theme item (so a colour changed in the QML is checked); glyphs
meet 3:1, and the sweep's band stands out from the text it crosses by 1.5:1."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from harness.gui import Gui

pytestmark = pytest.mark.in_memory  # the host core in this process (tests/helpers/gui.py)

# (foreground, background, where)
TEXT_PAIRS = [
    ("text", "window", "transcript, dialogs"),
    ("text", "surface", "dock, composer, buttons"),
    ("text", "sidebar", "session titles"),
    ("text", "selection", "the selected session, the current revision"),
    ("text", "userBubble", "the user's messages"),
    ("text", "noticeBackground", "a failed action's notice"),
    ("muted", "window", "tool lines, empty state"),
    ("muted", "surface", "dock hints, placeholder, mode"),
    ("muted", "sidebar", "mode tag, remote badge"),
    ("muted", "selection", "mode tag on the selected session"),
    ("accent", "surface", "the running step with reduced motion"),
    ("danger", "window", "a failed turn, an error result"),
    ("danger", "surface", "a malformed endpoint in the dialog"),
    ("warning", "window", "items dropped unfinished, in the transcript"),
    ("warning", "surface", "items dropped unfinished, in the history"),
    ("warning", "selection", "the same on the current revision"),
    ("accentText", "accent", "an enabled default button (Send, Delete)"),
    ("disabledText", "surface", "a disabled button (Send with nothing to send)"),
]
GLYPH_PAIRS = [
    ("green", "surface", "✓ completed"),
    ("accent", "surface", "◐ running, progress bar"),
    ("muted", "surface", "◐ ended, ○ pending, ✕ cancelled"),
]


def luminance(color: QColor) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * channel(color.redF())
        + 0.7152 * channel(color.greenF())
        + 0.0722 * channel(color.blueF())
    )


def ratio(a: QColor, b: QColor) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_of_every_pair_on_both_palettes(gui: Gui) -> None:
    theme = gui.item("theme")
    table: list[str] = []
    failures: list[str] = []
    for dark in (False, True):
        theme.setProperty("dark", dark)
        palette = "dark" if dark else "light"
        for pairs, needed in ((TEXT_PAIRS, 4.5), (GLYPH_PAIRS, 3.0)):
            for fg, bg, where in pairs:
                value = ratio(theme.property(fg), theme.property(bg))
                line = f"{palette:5} {fg:>12} on {bg:<16} {value:5.2f}:1 (>= {needed}) {where}"
                table.append(line)
                if value < needed:
                    failures.append(line)
        band = ratio(theme.property("sweepBand"), theme.property("text"))
        table.append(f"{palette:5} sweep band vs text {band:5.2f}:1 (>= 1.5)")
        if band < 1.5:
            failures.append(table[-1])
    print("\n".join(table))
    assert not failures, "\n".join(failures)


def test_the_controls_take_the_themes_colours(gui: Gui) -> None:
    """Buttons draw with the window's palette, bound to the theme: an enabled default
    button's text is the theme's text on the accent, a disabled one's the muted colour."""
    theme = gui.item("theme")
    for dark in (False, True):
        theme.setProperty("dark", dark)
        image = gui.grab()
        assert image is not None
        for name, attribute in (("sendButton", "disabledText"), ("forkButton", "disabledText")):
            button = gui.item(name)
            assert not button.property("enabled")
            content = button.property("contentItem")
            assert content.property("color") == theme.property(attribute), (dark, name)
