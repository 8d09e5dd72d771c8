"""Render resources/icons/nib-desktop.svg to the PNG sizes desktops ask for. Run after
changing the SVG; the PNGs are committed."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def main() -> int:
    app = QGuiApplication([*sys.argv[:1], "-platform", "offscreen"])
    renderer = QSvgRenderer(str(ICONS / "nib-desktop.svg"))
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"nib-desktop-{size}.png"))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
