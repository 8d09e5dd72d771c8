pragma ComponentBehavior: Bound
import QtQuick

// The keyboard focus, drawn around its parent: two pixels of the palette's highlight,
// outside the control so it never covers its text.
Rectangle {
    required property bool shown

    objectName: "focusRing"

    anchors.fill: parent
    anchors.margins: -3
    radius: 4
    color: "transparent"
    border.width: 2
    border.color: palette.highlight
    visible: shown
    z: 10
}
