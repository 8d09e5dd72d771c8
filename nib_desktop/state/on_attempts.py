"""The reducers of one task tried by several agents (contract section 18's attempts): an
attempt's runs as the host told them, and the check last given to one on a repository."""

from __future__ import annotations

from nib_desktop.state.aspects import NOTHING, Aspect as A, Change, change
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.parts import Held


def attempt_told(s: Held, e: ev.AttemptTold) -> Change:
    told = e.attempt
    if s.attempts.get(told.attempt_id) == told:
        return NOTHING
    s.attempts[told.attempt_id] = told
    return change(A.ATTEMPTS)


def check_recalled(s: Held, e: ev.CheckRecalled) -> Change:
    if s.recalled_check == (e.folder, e.command):
        return NOTHING
    s.recalled_check = (e.folder, e.command)
    return change(A.ATTEMPTS)
