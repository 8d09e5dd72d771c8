"""Every occurrence of the transcript's find query marked in one text item's document (a
line's text, a tool's detail): a syntax highlighter over the document as laid out, so
a message rendered from Markdown is marked where its words are, not in its source."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Property, QObject, Signal
from PySide6.QtGui import QColor
from PySide6.QtQml import QmlElement
from PySide6.QtQuick import QQuickTextDocument

if TYPE_CHECKING:
    from ui.views.find_marker import Marker

QML_IMPORT_NAME = "Nib"
QML_IMPORT_MAJOR_VERSION = 1


@QmlElement
class FindHighlight(QObject):
    """`document`: a TextEdit's textDocument; `query`: what to mark ("" marks nothing and
    lets the document go); `colour`: the mark's background."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document: QQuickTextDocument | None = None
        self._query = ""
        self._colour = QColor("#ffd43b")
        self._marker: Marker | None = None

    def _get_document(self) -> QQuickTextDocument | None:
        return self._document

    def _set_document(self, document: QQuickTextDocument | None) -> None:
        if document is not self._document:
            self._document = document
            self._apply()

    def _get_query(self) -> str:
        return self._query

    def _set_query(self, query: str) -> None:
        if query != self._query:
            self._query = query
            self._apply()

    def _get_colour(self) -> QColor:
        return self._colour

    def _set_colour(self, colour: QColor) -> None:
        # (a copy: `QColor(colour)` would have PySide weigh the constructor taking Qt's
        # colour names, and build its whole `Qt` namespace for it: 2.4 MB, 20 ms)
        self._colour = colour.toRgb()
        self._apply()

    def _apply(self) -> None:
        """Mark the document's occurrences anew; none without a query or a document."""
        wanted = self._query.casefold().strip() and self._query.casefold()
        if not wanted or self._document is None:
            if self._marker is not None:
                self._marker.setDocument(None)
                self._marker = None
            return
        document = self._document.textDocument()
        if self._marker is None or self._marker.document() is not document:
            if self._marker is not None:
                self._marker.setDocument(None)
            from ui.views.find_marker import Marker

            self._marker = Marker(document)
        self._marker.query = wanted
        self._marker.mark.setBackground(self._colour)
        self._marker.rehighlight()

    document = Property(QQuickTextDocument, _get_document, _set_document, notify=changed)
    query = Property(str, _get_query, _set_query, notify=changed)
    colour = Property(QColor, _get_colour, _set_colour, notify=changed)
