pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls

// A check box drawn in the theme's colours: a clear edge, and an accent fill with its mark
// when on, in both palettes (Fusion's own box was a faint grey on grey in the dark one),
// and the focus ring the other controls show.
CheckBox {
    id: box

    required property Theme theme

    indicator: Rectangle {
        objectName: "checkIndicator"
        x: box.leftPadding
        y: (box.height - height) / 2
        implicitWidth: 16
        implicitHeight: 16
        radius: 3
        opacity: box.enabled ? 1 : 0.5
        color: box.checked ? box.theme.accent : box.theme.surface
        border.color: box.checked ? box.theme.accent : box.theme.muted
        Text {
            anchors.centerIn: parent
            text: "✓"
            visible: box.checked
            color: box.theme.accentText
            font.pixelSize: 12
            font.bold: true
        }
    }
    Accessible.name: text
    FocusRing { shown: box.visualFocus }
}
