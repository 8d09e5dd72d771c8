"""What changed between two checklist revisions (contract section 11): one pure function,
used by the host for `todos.history` and the TodoWrite result, and by the desktop for the
transcript's one line per write.

Items have no ids, so they are matched by exact content: the i-th item with a content in
the old list is the i-th item with that content in the new one. A reworded item is
therefore a removal and an addition.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from host.protocol.models import StatusChange, TodoDiff, TodoItem

FINISHED = frozenset({"completed", "cancelled"})


def diff_items(old: Sequence[TodoItem], new: Sequence[TodoItem]) -> TodoDiff:
    if len(old) == len(new) and all(o.content == n.content for o, n in zip(old, new, strict=True)):
        # the common write: the same steps in the same order, some statuses moved on
        return TodoDiff(
            status_changed=tuple(
                StatusChange(content=n.content, from_=o.status, to=n.status)
                for o, n in zip(old, new, strict=True)
                if o.status != n.status
            )
        )
    contents = [item.content for item in new]
    if not {item.content for item in old}.intersection(contents):
        # a rewritten list: nothing to match, everything removed and added
        return TodoDiff(
            added=tuple(contents),
            completed_removed=tuple([i.content for i in old if i.status in FINISHED]),
            dropped_unfinished=tuple([i.content for i in old if i.status not in FINISHED]),
        )
    return matched_diff(old, new)


def matched_diff(old: Sequence[TodoItem], new: Sequence[TodoItem]) -> TodoDiff:
    """The diff by matching contents, whatever the lists (diff_items' general case). Only
    the contents both lists hold are matched one by one; the rest are removed or added
    as they are (a rewritten list has none in common)."""
    common = {item.content for item in old}.intersection([item.content for item in new])
    slots: dict[str, list[int]] = {}  # a common content: its new indexes not yet matched
    for index, item in enumerate(new):
        if item.content in common:
            slots.setdefault(item.content, []).append(index)
    pairs: list[tuple[TodoItem, TodoItem]] = []  # (old, new), in the old list's order
    new_order: list[int] = []
    removed: list[TodoItem] = []
    for item in old:
        waiting = slots.get(item.content)
        if waiting:
            index = waiting.pop(0)
            pairs.append((item, new[index]))
            new_order.append(index)
        else:
            removed.append(item)
    matched_new = set(new_order)
    return TodoDiff(
        added=tuple([item.content for i, item in enumerate(new) if i not in matched_new]),
        completed_removed=tuple([i.content for i in removed if i.status in FINISHED]),
        dropped_unfinished=tuple([i.content for i in removed if i.status not in FINISHED]),
        status_changed=tuple(
            StatusChange(content=n.content, from_=o.status, to=n.status)
            for o, n in pairs
            if o.status != n.status
        ),
        reordered=any(a > b for a, b in pairwise(new_order)),
    )
