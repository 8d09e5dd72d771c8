"""Describe the Python types QML imports as `Nib` in a .qmltypes module, so that
pyside6-qmllint checks the QML against them. Writes build/qml/Nib/; run by scripts/test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import PySide6

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    "ui/sweep.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "ui" / "views").glob("*.py")),
]


def _complete(dump: Path) -> None:
    """What the dump leaves out: a property with neither notify nor setter is constant
    (that is how ours are declared), and our own QObject types are pointers."""
    data = json.loads(dump.read_text())
    ours = {c["className"] for f in data for c in f["classes"]} | {"QObject"}
    for entry in data:
        for cls in entry["classes"]:
            for prop in cls.get("properties", []):
                if "notify" not in prop and "write" not in prop:
                    prop["constant"] = True
                if prop["type"] in ours:
                    prop["type"] += "*"
    dump.write_text(json.dumps(data, indent=1))


def main() -> int:
    out = ROOT / "build" / "qml" / "Nib"
    out.mkdir(parents=True, exist_ok=True)
    bindir = Path(sys.executable).parent
    dump = out / "nib_metatypes.json"
    subprocess.run(
        [str(bindir / "pyside6-metaobjectdump"), "-q", "-o", str(dump), *SOURCES],
        cwd=ROOT,
        check=True,
    )
    _complete(dump)
    metatypes = Path(PySide6.__file__).parent / "Qt" / "metatypes"
    foreign = ",".join(str(p) for p in sorted(metatypes.glob("qt6*_metatypes.json")))
    subprocess.run(
        [
            str(bindir / "pyside6-qmltyperegistrar"),
            "--generate-qmltypes",
            str(out / "nib.qmltypes"),
            "--import-name",
            "Nib",
            "--major-version",
            "1",
            "--minor-version",
            "0",
            "--foreign-types",
            foreign,
            "-o",
            str(out / "registrations.cpp"),
            str(dump),
        ],
        cwd=ROOT,
        check=True,
    )
    (out / "qmldir").write_text("module Nib\ntypeinfo nib.qmltypes\ndepends QtQuick\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
