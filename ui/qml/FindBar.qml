pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// Ctrl+F: find text in the transcript, its folded parts and tools' output included.
// Return (or F3) goes to the next occurrence, Shift+Return (Shift+F3) to the previous;
// Escape closes the bar and gives the focus back.
Rectangle {
    id: bar
    objectName: "findBar"

    required property TranscriptView view
    required property Theme theme
    signal closed()

    function open(): void {
        visible = true
        field.forceActiveFocus()
        field.selectAll()
    }
    // open with `text` in the field, as if typed (the finding is the caller's)
    function show(text: string): void {
        bar.open()
        field.text = text
        field.selectAll()
    }
    function close(): void {
        visible = false
        bar.view.find("")
        bar.closed()
    }

    visible: false
    implicitHeight: row.implicitHeight + 12
    radius: 6
    color: theme.userBubble
    border.color: theme.accent
    border.width: field.activeFocus ? 1 : 0

    RowLayout {
        id: row
        anchors.fill: parent
        anchors.margins: 6
        spacing: 6
        TextField {
            id: field
            objectName: "findField"
            Layout.fillWidth: true
            placeholderText: qsTr("Find in the transcript")
            color: bar.theme.text
            Accessible.name: qsTr("Find in the transcript")
            Accessible.description: qsTr("Return: next, Shift+Return: previous, Escape: close")
            onTextEdited: bar.view.find(text)
            Keys.onPressed: (event) => {
                if (event.key === Qt.Key_Escape) {
                    bar.close()
                } else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter || event.key === Qt.Key_F3) {
                    bar.view.findStep(event.modifiers & Qt.ShiftModifier ? -1 : 1)
                } else {
                    return
                }
                event.accepted = true
            }
        }
        Label {
            objectName: "findCount"
            text: bar.view.findCount
            color: bar.theme.muted
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        NibButton {
            text: "↑"
            Accessible.name: qsTr("Previous match")
            onClicked: bar.view.findStep(-1)
        }
        NibButton {
            text: "↓"
            Accessible.name: qsTr("Next match")
            onClicked: bar.view.findStep(1)
        }
        NibButton {
            text: "✕"
            Accessible.name: qsTr("Close find")
            onClicked: bar.close()
        }
    }
}
