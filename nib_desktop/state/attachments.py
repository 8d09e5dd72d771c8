"""What goes with a message to an agent besides its text (contract section 17): the files
"@" finds in the session's folder, and the images pasted or dropped into the composer,
held per session until the message is sent."""

from nib_desktop.state.record import Record
from nib_desktop.state.tuples import NamedTuple

MAX_IMAGES = 10  # held per message
MAX_IMAGE_BYTES = 6 * 1024 * 1024  # decoded, as the contract allows


class HeldImage(NamedTuple):
    mime_type: str
    data: str  # base64
    label: str  # "Image 1 · 120 KB"

    @property
    def source(self) -> str:
        """As a data URL, for its thumbnail (the user's own paste, of a known type)."""
        return f"data:{self.mime_type};base64,{self.data}"


class FindFiles(Record):
    """The files under the shown session's folder matching `query` ("@query" typed)."""

    query: str


class HoldImage(Record):
    """An image pasted or dropped into the shown session's composer, to go with the next
    message (refused in words where the agent takes no images)."""

    mime_type: str
    data: str  # base64
    size: int  # bytes, decoded


class DropImage(Record):
    index: int  # -1: every one


AttachIntent = FindFiles | HoldImage | DropImage
