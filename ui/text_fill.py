"""Text painted with a gradient fill, laid out as `QPainter.drawText` lays it out in a box
(wrapped at words, or one line centred in the box's height), without Python ever naming
Qt's namespace.

`QPainter.setPen` (and every `QColor`, `QBrush` or `QPen` made from a colour) has PySide
weigh an overload taking one of Qt's own enums, and PySide then builds its whole `Qt`
namespace as Python enums: 2.4 MB resident and about 20 ms on the GUI thread, at the first
sweep of every start. A QTextLayout whose one format carries the fill as its foreground
draws the same glyphs with none of those calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QFont, QLinearGradient, QPainter

# Qt.TextWordWrap | Qt.AlignLeft; Qt.AlignLeft | Qt.AlignVCenter, as numbers
WRAPPED = 0x1000 | 0x0001
ONE_LINE = 0x0001 | 0x0080


def fill_text(
    painter: QPainter,
    text: str,
    font: QFont,
    size: tuple[float, float],
    single: bool,
    fill: QLinearGradient,
) -> None:
    """`text` in `font` at the top left of a box of `size` (width, height), filled with
    `fill` (a plain colour is a gradient of two equal stops)."""
    from PySide6.QtCore import QPointF, QRectF
    from PySide6.QtGui import QBrush, QFontMetricsF, QTextCharFormat, QTextLayout, QTextOption

    width, height = size
    foreground = QTextCharFormat()
    foreground.setForeground(QBrush(fill))
    whole = QTextLayout.FormatRange()
    whole.start, whole.length = 0, len(text.encode("utf-16-le")) // 2  # UTF-16 units
    whole.format = foreground
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.ManualWrap if single else QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.setFormats([whole])
    metrics = QFontMetricsF(font)
    leading, below = metrics.leading(), 0.0
    layout.beginLayout()
    while (line := layout.createLine()).isValid():
        line.setLineWidth(max(1.0, width))
        below += leading
        line.setPosition(QPointF(0, below))
        below += line.height()
    layout.endLayout()
    # one line goes where drawText puts it in the box's height: asked of Qt's own layout
    top = metrics.boundingRect(QRectF(0, 0, width, height), ONE_LINE, text).y() if single else 0
    layout.draw(painter, QPointF(0, top))
