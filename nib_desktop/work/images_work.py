"""Images pasted or dropped into the composer (contract section 17), held per session
until its next message takes them: refused in words where they cannot go (a session of
Nib's own agent or a remote one, an agent that takes no images, too many, too large)."""

from __future__ import annotations

from nib_desktop.state import events as ev, intents as it
from nib_desktop.state.attachments import MAX_IMAGE_BYTES, MAX_IMAGES, HeldImage
from nib_desktop.state.store import AppState


class ImagesWork:
    HANDLES = (it.HoldImage, it.DropImage)  # the intents it carries out

    def __init__(self, state: AppState) -> None:
        self._state = state

    def ask(self, intent: it.HoldImage | it.DropImage) -> None:
        state = self._state
        shown = state.shown
        if shown is None:
            return
        held = state.images.get(shown.session_id, ())
        if isinstance(intent, it.DropImage):
            kept = () if intent.index < 0 else held[: intent.index] + held[intent.index + 1 :]
            state.apply(ev.ImagesHeld(shown.session_id, kept))
            return
        told = state.steering.get(shown.session_id)
        refusal = ""
        if not shown.agent or shown.remote:
            refusal = "Images go only to a local agent's session."
        elif told is not None and not told.images:
            refusal = f"{shown.agent} takes no images in a prompt."
        elif len(held) >= MAX_IMAGES:
            refusal = f"At most {MAX_IMAGES} images go with one message."
        elif intent.size > MAX_IMAGE_BYTES:
            refusal = f"The image is {intent.size / 2**20:.1f} MiB; at most 6 MiB go to the agent."
        if refusal:
            state.apply(ev.NoticeShown(f"Could not attach the image: {refusal}"))
            return
        label = f"Image {len(held) + 1} · {max(1, round(intent.size / 1024))} KB"
        image = HeldImage(intent.mime_type, intent.data, label)
        state.apply(ev.ImagesHeld(shown.session_id, (*held, image)))

    def take(self, session_id: str) -> tuple[HeldImage, ...]:
        """The images held for the session's message now being sent (held no more)."""
        held = self._state.images.get(session_id, ())
        if held:
            self._state.apply(ev.ImagesHeld(session_id, ()))
        return held
