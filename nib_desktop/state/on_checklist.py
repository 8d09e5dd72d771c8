"""How the state follows a session's checklist: its snapshots, the History view (its
pages, the writes it gains in place, the revision viewed) and the Changes view."""

from __future__ import annotations

from nib_desktop.state.aspects import NOTHING, Aspect, Change, change, put
from nib_desktop.state.lazy import events as ev
from nib_desktop.state.parts import Held, History

A = Aspect


def snapshot_arrived(s: Held, e: ev.SnapshotArrived) -> Change:
    snapshot = e.snapshot
    kept = s.snapshots.get(snapshot.session_id)
    if kept is not None and snapshot.revision <= kept.revision:
        return NOTHING
    s.snapshots[snapshot.session_id] = snapshot
    return change(A.CHECKLIST, session_id=snapshot.session_id)


def plan_asked(s: Held, e: ev.PlanAsked) -> Change:
    queued = e.queued and bool(e.asks)
    was = e.session_id in s.asks_queued
    (s.asks_queued.add if queued else s.asks_queued.discard)(e.session_id)
    if not put(s.plan_asks, e.session_id, e.asks) and queued == was:
        return NOTHING
    return change(A.FEEDBACK, session_id=e.session_id)


def history_opened(s: Held, e: ev.HistoryOpened) -> Change:
    if e.session_id != s.current or s.history.session_id == e.session_id:
        return NOTHING
    s.history = History(e.session_id)
    return change(A.HISTORY)


def history_closed(s: Held, _e: ev.HistoryClosed) -> Change:
    return close_history(s)


def close_history(s: Held) -> Change:
    if s.history == History():
        return NOTHING
    viewing = s.history.viewed is not None
    s.history = History()
    aspects = (A.HISTORY, A.CHECKLIST) if viewing else (A.HISTORY,)
    return change(*aspects, session_id=s.current)


def history_page(s: Held, e: ev.HistoryPageLoaded) -> Change:
    held = s.history
    if e.session_id != held.session_id:
        return NOTHING
    has_more = e.has_more
    if e.older:
        known = {r.revision for r in held.revisions}
        revisions = held.revisions + tuple(r for r in e.revisions if r.revision not in known)
    else:
        # the page between what is held: newer ones (written while it was on its way)
        # stay before it, older ones after it
        newest = {r.revision for r in e.revisions}
        top, oldest = max(newest, default=0), min(newest, default=0)
        revisions = (
            tuple(r for r in held.revisions if r.revision > top)
            + e.revisions
            + tuple(r for r in held.revisions if r.revision < oldest)
        )
        has_more = has_more or held.has_more
    s.history = held._replace(revisions=revisions, has_more=has_more)
    return change(A.HISTORY)


def revision_written(s: Held, e: ev.RevisionWritten) -> Change:
    shown = s.history
    newest = shown.revisions[0].revision if shown.revisions else 0
    if e.session_id != shown.session_id or newest >= e.revision.revision:
        return NOTHING
    s.history = shown._replace(revisions=(e.revision, *shown.revisions))
    return change(A.HISTORY)


def history_requests_read(s: Held, e: ev.HistoryRequestsRead) -> Change:
    shown = s.history
    known = dict(shown.requests)
    if e.session_id != shown.session_id or all(known.get(t) == w for t, w in e.requests):
        return NOTHING
    s.history = shown._replace(requests=tuple({**known, **dict(e.requests)}.items()))
    return change(A.HISTORY)


def revision_viewed(s: Held, e: ev.RevisionViewed) -> Change:
    history = s.history
    viewed = next((r for r in history.revisions if r.revision == e.revision), None)
    if viewed == history.viewed:
        return NOTHING
    s.history = history._replace(viewed=viewed)
    return change(A.HISTORY, A.CHECKLIST, session_id=s.current)


def changes_shown(s: Held, e: ev.ChangesShown) -> Change:
    if e.changes == s.changes:
        return NOTHING
    s.changes = e.changes
    return change(A.CHANGES)


def step_files_counted(s: Held, e: ev.StepFilesCounted) -> Change:
    if s.step_files.get(e.session_id) == e.counts:
        return NOTHING
    s.step_files[e.session_id] = e.counts
    return change(A.CHECKLIST, session_id=e.session_id)


def revision_files_counted(s: Held, e: ev.RevisionFilesCounted) -> Change:
    if s.revision_files.get(e.session_id) == e.counts:
        return NOTHING
    s.revision_files[e.session_id] = e.counts
    return change(A.HISTORY, session_id=e.session_id)


def checkpoint_taken(_s: Held, e: ev.CheckpointTaken) -> Change:
    return change(A.CHECKPOINT, session_id=e.session_id)
