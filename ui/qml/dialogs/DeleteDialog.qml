pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib
import ".."

// Asks before a session is deleted; Return deletes, Escape keeps it. A session in its
// own worktree says so, and whether the worktree goes with it or is kept for git.
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
    readonly property string branch: deleteDialog.app.sessions.currentBranch
    onAccepted: deleteDialog.branch === ""
                ? deleteDialog.app.sessions.remove(deleteDialog.app.sessions.currentId)
                : deleteDialog.app.sessions.removeWith(deleteDialog.app.sessions.currentId, "remove")

    Label {
        objectName: "deleteText"
        width: deleteDialog.availableWidth
        focus: true
        // laid out only while the dialog is open
        text: !deleteDialog.visible ? ""
              : qsTr("“%1”, its transcript and its checklist will be deleted. This cannot be undone.")
                .arg(deleteDialog.app.sessions.currentTitle)
                + (deleteDialog.branch === "" ? ""
                   : qsTr(" It works in its own worktree on the branch ⎇ %1: remove the worktree and its branch with it (refused, in words, if it holds work not merged), or keep them for git.")
                     .arg(deleteDialog.branch))
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        Keys.onReturnPressed: deleteDialog.accept()
        Keys.onEnterPressed: deleteDialog.accept()
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "confirmDelete"
            text: deleteDialog.branch === "" ? qsTr("Delete") : qsTr("Delete and remove the worktree")
            primary: true
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        NibButton {
            objectName: "deleteKeepWorktree"
            visible: deleteDialog.branch !== ""
            text: qsTr("Delete, keep the worktree")
            Accessible.name: text
            onClicked: {
                deleteDialog.app.sessions.removeWith(deleteDialog.app.sessions.currentId, "keep")
                deleteDialog.close()
            }
        }
        NibButton {
            text: qsTr("Cancel")
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}
