"""What the transcript's one-key commands and links pick among its lines: a code block
as the agent wrote it, a file or place a tool touched. Pure functions of the lines; no
Qt."""

from __future__ import annotations

from collections.abc import Sequence

from nib_desktop.state import rich
from nib_desktop.state.markdown import code_blocks
from nib_desktop.state.transcript_lines import Line


def linked_code(lines: Sequence[Line], row: int, number: str) -> str | None:
    """Code block `number` of line `row` (its "copy:N" link); None where there is none."""
    if not (0 <= row < len(lines) and number.isdigit()):
        return None
    codes = code_blocks(lines[row].text)
    return codes[int(number)] if int(number) < len(codes) else None


def last_code(lines: Sequence[Line], row: int, folded: bool) -> str | None:
    """The last code block of line `row` or, where it has none, of the nearest line
    before it that has one; of a `folded` line, the last its folded form shows (never one
    hidden in its fold). None where there is none."""
    for at in range(min(row, len(lines) - 1), -1, -1):
        shown = lines[at].preview if at == row and folded else lines[at].text
        codes = code_blocks(shown) if lines[at].markdown else []
        if codes:
            return codes[-1]
    return None


def linked_place(lines: Sequence[Line], row: int, number: str) -> rich.Place | None:
    """Place `number` of line `row` (its "place:N" link); None where there is none."""
    if 0 <= row < len(lines) and number.isdigit() and int(number) < len(lines[row].places):
        return lines[row].places[int(number)]
    return None


def nearest_place(lines: Sequence[Line], row: int) -> rich.Place | None:
    """The first file or place of line `row` or, where it has none, of the nearest line
    before it that has one."""
    for at in range(min(row, len(lines) - 1), -1, -1):
        if lines[at].places:
            return lines[at].places[0]
    return None
