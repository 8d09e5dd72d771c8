"""The base of every model that crosses the socket, and the field types the contract's
sections share."""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

Id = Annotated[str, StringConstraints(min_length=1, max_length=200)]
# Integers on the wire are JSON integers only (not true, not "3", not 3.0), and within
# what SQLite stores: a bound past them is an invalid parameter, not an internal error.
MAX_WIRE_INT = 2**62
Position = Annotated[int, Field(strict=True, ge=1, le=MAX_WIRE_INT)]


class Wire(BaseModel):
    """Base of every model that crosses the socket."""

    model_config = ConfigDict(
        extra="forbid",
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        # Validators are built on first use, not at import: both processes start faster.
        defer_build=True,
    )

    def to_wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)


class Empty(Wire):
    pass


Switch = Annotated[bool, Field(strict=True)]
