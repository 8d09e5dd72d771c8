pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib
import ".."

// Asks before a session is deleted; Return deletes, Escape keeps it.
Dialog {
    id: deleteDialog

    required property AppViews app
    required property Theme theme
    objectName: "deleteDialog"
    title: qsTr("Delete this session?")
    width: Math.max(260, Math.min(400, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onAccepted: deleteDialog.app.sessions.remove(deleteDialog.app.sessions.currentId)

    Label {
        width: deleteDialog.availableWidth
        focus: true
        // laid out only while the dialog is open
        text: deleteDialog.visible
              ? qsTr("“%1”, its transcript and its checklist will be deleted. This cannot be undone.")
                .arg(deleteDialog.app.sessions.currentTitle)
              : ""
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        Keys.onReturnPressed: deleteDialog.accept()
        Keys.onEnterPressed: deleteDialog.accept()
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "confirmDelete"
            text: qsTr("Delete")
            primary: true
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        NibButton {
            text: qsTr("Cancel")
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}
