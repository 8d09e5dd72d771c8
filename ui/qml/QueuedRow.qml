pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// A message sent while the turn runs: shown, editable, cancellable; it goes when the
// turn completes (after a stop or a failure it waits for Send now).
RowLayout {
    id: row
    objectName: "queuedRow"

    required property ComposerView composer
    required property Theme theme
    signal editRequested()

    visible: row.composer.queuedText !== ""
    spacing: 6
    Label {
        objectName: "queuedText"
        Layout.fillWidth: true
        text: (row.composer.queuedHeld
               ? qsTr("Queued — the turn did not complete: ") : qsTr("Queued, sent when this turn completes: "))
              + row.composer.queuedText
        textFormat: Text.PlainText
        elide: Text.ElideRight
        FullTextTip { target: parent }
        maximumLineCount: 1
        color: row.theme.muted
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }
    NibToolButton {
        objectName: "sendQueuedButton"
        visible: row.composer.queuedHeld
        text: qsTr("Send now")
        font.pixelSize: 12
        onClicked: row.composer.sendQueued()
    }
    NibToolButton {
        objectName: "editQueuedButton"
        text: qsTr("Edit")
        font.pixelSize: 12
        ToolTip.visible: hovered
        ToolTip.text: qsTr("Back into the input (Up in the empty input)")
        onClicked: row.editRequested()
    }
    NibToolButton {
        objectName: "cancelQueuedButton"
        text: qsTr("Cancel")
        font.pixelSize: 12
        onClicked: row.composer.cancelQueued()
    }
}
