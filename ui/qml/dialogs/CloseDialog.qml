pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib
import ".."

// Closing while turns run asks first: closing stops them (the host ends with the app).
Dialog {
    id: closeDialog

    required property AppViews app
    required property Theme theme
    objectName: "closeDialog"
    title: qsTr("Stop the running turn?")
    width: Math.max(260, Math.min(420, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true

    Label {
        width: closeDialog.availableWidth
        focus: true
        text: closeDialog.visible
              ? qsTr("%n turn(s) still running. Closing Nib Desktop stops them; their checklists and transcripts are kept.", "", closeDialog.app.sessions.runningCount)
              : ""
        wrapMode: Text.Wrap
        Keys.onReturnPressed: closeDialog.accept()
        Keys.onEnterPressed: closeDialog.accept()
    }

    footer: DialogButtonBox {
        Button {
            objectName: "confirmClose"
            text: qsTr("Stop and close")
            highlighted: true
            focusPolicy: Qt.NoFocus
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        Button {
            text: qsTr("Keep working")
            focusPolicy: Qt.NoFocus
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}
