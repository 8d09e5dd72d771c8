"""SweepText: wrapped plain text whose glyphs are filled with a moving gradient band.

A QQuickPaintedItem, so it draws on the software scene graph (offscreen) and on OpenGL
alike. The band's position is `phase` (0 to 1, driven by a QML animation); it is painted
into the text itself: the glyph outlines are filled with the gradient, nothing is drawn
over or behind the row. The band is a third of the text's own width (its widest line), not
of the item's, so a short step sees it as often as a long one. With `singleLine` the text
is one line, elided at the right (the dock's collapsed header).

The band moves on its own timer while `running`, at `FPS` frames a second rather than the
display's refresh rate: each frame repaints only this item, and on a software renderer
(a VM, a remote desktop) every frame costs CPU. During the rest between passes nothing is
drawn at all.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QRect, QRectF, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtQml import QmlElement
from PySide6.QtQuick import QQuickItem, QQuickPaintedItem

from ui.text_fill import WRAPPED, fill_text

if TYPE_CHECKING:
    from PySide6.QtGui import QFont, QPainter
else:
    # the font property's type by its C++ name: PySide takes either, and naming the class
    # would make its Python type before the first frame (see below)
    QFont = "QFont"

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1

# The painting classes (QPainter, QLinearGradient, QFontMetricsF, ...) and QFont are
# imported where they are used: PySide makes a class's Python type and enums when it is
# first named, 4 ms for the painting classes and 1.1 ms for QFont, and the window's first
# frame draws no sweep.


@QmlElement
class SweepText(QQuickPaintedItem):
    textChanged = Signal()
    styleChanged = Signal()
    phaseChanged = Signal()
    runningChanged = Signal()
    truncatedChanged = Signal()

    BAND = 1 / 3  # of the text's width
    PASS_MS = 1600  # the band crossing the text
    REST_MS = 600  # then nothing moves
    FPS = 30

    def __init__(self, parent: QQuickItem | None = None) -> None:
        super().__init__(parent)
        from PySide6.QtGui import QFont

        self._text = ""
        self._font = QFont()
        self._color = QColor()  # both set by the QML from the theme
        self._band = QColor()
        self._phase = 0.0
        self._sweeping = True
        self._single = False
        self._elided = ""  # the single line as cut to the width, by the QML (TextMetrics)
        self._truncated = False
        from PySide6.QtCore import QElapsedTimer

        self._clock = QElapsedTimer()
        # Qt's default (coarse) timer, within 5% of the 33 ms: each frame draws the band
        # where the clock says it is, so a late tick never leaves it behind; naming the
        # precise one would have PySide build its whole `Qt` namespace (2.4 MB, 20 ms)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self.setAntialiasing(True)

    def geometryChange(self, new: QRectF | QRect, old: QRectF | QRect) -> None:
        super().geometryChange(new, old)
        if new.width() != old.width():
            self._relayout()

    def _relayout(self) -> None:
        from PySide6.QtGui import QFontMetricsF

        metrics = QFontMetricsF(self._font)
        natural = metrics.horizontalAdvance(self._text)
        self.setImplicitWidth(natural)
        if self._single:
            self.setImplicitHeight(metrics.height())
        else:
            # Until the layout gives a width, measure one line rather than a word per line.
            width = self.width() if self.width() > 0 else natural + 1
            rect = metrics.boundingRect(QRectF(0, 0, width, 1e6), WRAPPED, self._text or " ")
            self.setImplicitHeight(rect.height())
        # a single line cut short (as Text.truncated): the window shows the rest on hover
        truncated = self._single and natural > max(1.0, self.width()) + 0.5
        if truncated != self._truncated:
            self._truncated = truncated
            self.truncatedChanged.emit()
        self.update()

    def shown_text(self) -> tuple[str, float]:
        """The text as drawn (elided when single-line) and its width in pixels."""
        from PySide6.QtGui import QFontMetricsF

        metrics = QFontMetricsF(self._font)
        width = max(1.0, self.width())
        if self._single:
            text = self._elided or self._text
            return text, min(width, metrics.horizontalAdvance(text))
        rect = metrics.boundingRect(QRectF(0, 0, width, 1e6), WRAPPED, self._text or " ")
        return self._text, min(width, rect.width())

    def paint(self, painter: QPainter) -> None:
        from PySide6.QtGui import QLinearGradient

        text, text_width = self.shown_text()
        fill = QLinearGradient(0, 0, 1, 0)
        if self._sweeping:
            width = max(1.0, text_width)
            band = width * self.BAND
            # the band travels from fully left of the text to fully right of it
            centre = -band + self._phase * (width + 2 * band)
            fill = QLinearGradient(centre - band / 2, 0, centre + band / 2, 0)
            fill.setColorAt(0.5, self._band)
        fill.setColorAt(0.0, self._color)
        fill.setColorAt(1.0, self._color)
        fill_text(painter, text, self._font, (self.width(), self.height()), self._single, fill)

    # --- the band's own clock -------------------------------------------------------

    def _tick(self) -> None:
        cycle = self.PASS_MS + self.REST_MS
        at = self._clock.elapsed() % cycle
        if at < self.PASS_MS:
            # ease in and out, as a sine
            self._set_phase(0.5 - 0.5 * math.cos(math.pi * at / self.PASS_MS))
            self._timer.start(1000 // self.FPS)
        else:
            self._set_phase(1.0)  # past the text's end: the band is gone
            self._timer.start(cycle - at)  # wake for the next pass

    def _get_running(self) -> bool:
        return self._timer.isActive()

    def _set_running(self, value: bool) -> None:
        if value == self._timer.isActive():
            return
        if value:
            self._clock.start()
            self._tick()
        else:
            self._timer.stop()
        self.runningChanged.emit()

    # --- properties -------------------------------------------------------------------

    def _get_text(self) -> str:
        return self._text

    def _set_text(self, value: str) -> None:
        if value != self._text:
            self._text = value
            self.textChanged.emit()
            self._relayout()

    def _get_font(self) -> QFont:
        return self._font

    def _set_font(self, value: QFont) -> None:
        if value != self._font:
            from PySide6.QtGui import QFont

            self._font = QFont(value)
            self.styleChanged.emit()
            self._relayout()

    def _get_color(self) -> QColor:
        return self._color

    def _set_color(self, value: QColor) -> None:
        if value != self._color:
            self._color = value.toRgb()  # (a copy; see `FindHighlight._set_colour`)
            self.styleChanged.emit()
            self.update()

    def _get_band(self) -> QColor:
        return self._band

    def _set_band(self, value: QColor) -> None:
        if value != self._band:
            self._band = value.toRgb()  # (a copy; see `FindHighlight._set_colour`)
            self.styleChanged.emit()
            self.update()

    def _get_phase(self) -> float:
        return self._phase

    def _set_phase(self, value: float) -> None:
        if value != self._phase:
            self._phase = value
            self.phaseChanged.emit()
            if self._sweeping:
                self.update()

    def _get_sweeping(self) -> bool:
        return self._sweeping

    def _set_sweeping(self, value: bool) -> None:
        if value != self._sweeping:
            self._sweeping = value
            self.styleChanged.emit()
            self.update()

    def _get_single(self) -> bool:
        return self._single

    def _set_single(self, value: bool) -> None:
        if value != self._single:
            self._single = value
            self.styleChanged.emit()
            self._relayout()

    def _get_truncated(self) -> bool:
        return self._truncated

    def _get_elided(self) -> str:
        return self._elided

    def _set_elided(self, value: str) -> None:
        if value != self._elided:
            self._elided = value
            self.styleChanged.emit()
            self.update()

    text = Property(str, _get_text, _set_text, notify=textChanged)
    truncated = Property(bool, _get_truncated, notify=truncatedChanged)
    singleLine = Property(bool, _get_single, _set_single, notify=styleChanged)
    # with `singleLine`, the text as elided to the width (the QML's TextMetrics: eliding
    # here would name Qt's elide modes, and PySide would build its whole `Qt` namespace)
    elidedText = Property(str, _get_elided, _set_elided, notify=styleChanged)
    font = Property(QFont, _get_font, _set_font, notify=styleChanged)
    color = Property(QColor, _get_color, _set_color, notify=styleChanged)
    bandColor = Property(QColor, _get_band, _set_band, notify=styleChanged)
    phase = Property(float, _get_phase, _set_phase, notify=phaseChanged)
    running = Property(bool, _get_running, _set_running, notify=runningChanged)
    sweeping = Property(bool, _get_sweeping, _set_sweeping, notify=styleChanged)
