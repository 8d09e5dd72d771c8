"""The desktop entry, the AppStream metadata and the icons that ship in the bundle."""

from __future__ import annotations

import configparser
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

from PySide6.QtGui import QImage

from nib_desktop.shell import paths

RESOURCES = paths.resource("")


def test_paths_resolve_from_source() -> None:
    assert (paths.qml_dir() / "Main.qml").is_file()
    assert paths.resource("nib-desktop.desktop").is_file()


def test_desktop_entry() -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(RESOURCES / "nib-desktop.desktop")
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Exec"].split()[0] == "nib-desktop"
    assert entry["Icon"] == "nib-desktop"
    assert entry["StartupWMClass"] == "nib-desktop"
    assert entry["Categories"].endswith(";")


def test_metainfo_names_the_package_version() -> None:
    root = ET.parse(RESOURCES / "io.nib.Desktop.metainfo.xml").getroot()
    assert root.findtext("id") == "io.nib.Desktop"
    assert root.find("launchable").text == "nib-desktop.desktop"  # type: ignore[union-attr]
    newest = root.find("releases/release")
    assert newest is not None and newest.get("version") == version("nib-desktop")


def test_icons(qapp) -> None:
    icons = Path(RESOURCES / "icons")
    assert (icons / "nib-desktop.svg").is_file()
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        image = QImage(str(icons / f"nib-desktop-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel()
