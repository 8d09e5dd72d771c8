pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// An agent's turn refused for want of a sign-in: its own sign-in methods as buttons,
// Alt+1, Alt+2 and Alt+3 for the first three (the palette offers them all too).
RowLayout {
    id: row
    objectName: "signInRow"

    required property ComposerView composer
    required property Theme theme

    // the methods, read again whenever the composer's view changes
    readonly property var methods: {
        void row.composer.signInCount
        void row.composer.signInAgent
        return row.composer.signIns()
    }
    visible: row.methods.length > 0
    spacing: 6
    Label {
        text: qsTr("%1 asks you to sign in:").arg(row.composer.signInAgent)
        textFormat: Text.PlainText
        color: row.theme.text
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }
    Repeater {
        model: row.methods
        delegate: NibButton {
            required property var modelData
            required property int index
            objectName: "signIn_" + modelData.id
            text: index < 3 ? qsTr("%1 (Alt+%2)").arg(modelData.name).arg(index + 1) : modelData.name
            ToolTip.visible: hovered || activeFocus
            ToolTip.text: modelData.description
            Accessible.name: qsTr("Sign in: %1").arg(modelData.name)
            onClicked: row.composer.signIn(modelData.id)
        }
    }
    Item { Layout.fillWidth: true }
    Repeater {
        model: 3
        delegate: Item {
            id: key
            required property int index
            Shortcut {
                sequence: "Alt+" + (key.index + 1)
                enabled: row.visible && key.index < row.methods.length
                context: Qt.WindowShortcut
                onActivated: row.composer.signIn(row.methods[key.index].id)
            }
        }
    }
}
