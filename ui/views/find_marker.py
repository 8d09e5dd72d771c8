"""The find's marks in one document: a syntax highlighter. Its module is imported when a
find first marks something: the text classes it names (QSyntaxHighlighter,
QTextCharFormat, QTextDocument) cost PySide about 2.7 ms to make, and the first frame
marks nothing."""

from __future__ import annotations

from PySide6.QtGui import QSyntaxHighlighter, QTextCharFormat, QTextDocument


class Marker(QSyntaxHighlighter):
    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self.query = ""
        self.mark = QTextCharFormat()

    def highlightBlock(self, text: str) -> None:
        if not self.query:
            return
        folded, size = text.casefold(), len(self.query)
        at = folded.find(self.query)
        while at >= 0:
            self.setFormat(at, size, self.mark)
            at = folded.find(self.query, at + size)
