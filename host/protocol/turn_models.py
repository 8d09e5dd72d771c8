"""A turn and what a message's turn takes besides its text (sections 4 and 17): files of
the folder and images. Reached as `models.X`, like every wire type."""

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints, field_validator

from host.protocol.wire import Wire

TurnState = Literal["running", "completed", "failed", "cancelled"]

# the error of a turn a host found running when it started: the one error of the
# contract that names a cause (section 8), told by `Turn.interrupted` to both sides
HOST_RESTARTED = "host restarted"


class Turn(Wire):
    id: str
    session_id: str
    state: TurnState
    error: str | None
    started_at: str
    finished_at: str | None

    @property
    def interrupted(self) -> bool:
        """Ended because its host stopped under it (section 8), not by its own failure."""
        return self.state == "failed" and self.error == HOST_RESTARTED


MAX_IMAGE_BYTES = 6 * 1024 * 1024  # an image attachment, decoded (section 17)


class FileAttachment(Wire):
    """A file under the session's folder, for an external agent (section 17)."""

    type: Literal["file"]
    path: Annotated[str, StringConstraints(min_length=1, max_length=4096)]


class ImageAttachment(Wire):
    """An image in the prompt, for an agent that takes images (section 17)."""

    type: Literal["image"]
    mime_type: Annotated[str, StringConstraints(pattern=r"^image/[A-Za-z0-9.+-]{1,60}$")]
    data: Annotated[str, StringConstraints(min_length=1, max_length=MAX_IMAGE_BYTES * 4 // 3 + 4)]

    @field_validator("data")
    @classmethod
    def _base64(cls, value: str) -> str:
        import base64
        import binascii

        try:
            decoded = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("data must be base64") from None
        if len(decoded) > MAX_IMAGE_BYTES:
            raise ValueError(f"the image is {len(decoded)} bytes decoded (at most 6 MiB)")
        return value


Attachment = Annotated[FileAttachment | ImageAttachment, Field(discriminator="type")]


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("text must not be blank")
    return value


# what a user sends: a message, a task (at most 100,000 characters, not blank)
UserText = Annotated[
    str, StringConstraints(min_length=1, max_length=100_000), AfterValidator(_not_blank)
]
