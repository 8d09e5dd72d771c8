"""git's patch split per file and cut while it is read (issue 46, item 6): whatever the
chunks it arrives in, the same files and the same cuts; a file past its limit kept to it
and marked; past the whole, reading stops and the files not read are marked."""

from __future__ import annotations

from host.checkpoints.diffs import HEAD_ROOM, PatchCut, patch_body


def patch(files: dict[str, int]) -> bytes:
    """A patch of one changed line per count, per file."""
    out = b""
    for name, lines in files.items():
        out += f"diff --git a/{name} b/{name}\nindex 1..2 100644\n".encode()
        out += f"--- a/{name}\n+++ b/{name}\n".encode()
        out += f"@@ -1,{lines} +1,{lines} @@\n".encode()
        out += b"".join(f"-old {i}\n+new {i}\n".encode() for i in range(lines))
    return out


def fed(data: bytes, size: int, per_file: int, whole: int) -> tuple[PatchCut, bool]:
    cut = PatchCut(per_file, whole)
    going = True
    for at in range(0, len(data), size):
        going = cut.feed(data[at : at + size])
        if not going:
            break
    return cut, going


def test_any_chunks_give_the_same_files() -> None:
    data = patch({"a.txt": 3, "b.txt": 5, "c d.txt": 1})
    whole = PatchCut(10**6, 10**7)
    whole.feed(data)
    expected = whole.close()
    assert [patch_body(p).splitlines()[0] for p, _cut in expected] == [
        "--- a/a.txt",
        "--- a/b.txt",
        "--- a/c d.txt",
    ]
    assert b"".join(p for p, _cut in expected) == data
    for size in (1, 2, 7, 11, 12, 13, 64, 4096):
        cut, going = fed(data, size, 10**6, 10**7)
        assert going and cut.close() == expected, size


def test_a_file_past_its_limit_is_kept_to_it_and_marked() -> None:
    data = patch({"big.txt": 20_000, "small.txt": 2})
    cut, going = fed(data, 4096, 1000, 10**7)
    assert going
    (big, big_cut), (small, small_cut) = cut.close()
    assert big_cut and len(big) == 1000 + HEAD_ROOM
    assert not small_cut and small.endswith(b"+new 1\n")


def test_past_the_whole_reading_stops_and_the_rest_is_marked() -> None:
    data = patch({f"f{i}.txt": 5_000 for i in range(50)})
    cut, going = fed(data, 65536, 50_000, 200_000)
    assert not going and cut.stopped
    kept = cut.close()
    assert sum(len(p) for p, _c in kept) <= 200_000 + 50_000 + HEAD_ROOM
    assert len(kept) < 50 and kept[-1][1]  # the file begun when it stopped: marked
