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
    title: closeDialog.app.sessions.runningCount === 1 ? qsTr("Stop the running turn?")
                                                       : qsTr("Stop the running turns?")
    width: Math.max(260, Math.min(420, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true

    Label {
        objectName: "closeText"
        width: closeDialog.availableWidth
        focus: true
        text: closeDialog.visible
              ? (closeDialog.app.sessions.runningCount === 1
                 ? qsTr("1 turn is still running. Closing Nib Desktop stops it; its checklist and transcript are kept.")
                 : qsTr("%1 turns are still running. Closing Nib Desktop stops them; their checklists and transcripts are kept.").arg(closeDialog.app.sessions.runningCount))
              : ""
        wrapMode: Text.Wrap
        Keys.onReturnPressed: closeDialog.accept()
        Keys.onEnterPressed: closeDialog.accept()
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "confirmClose"
            text: qsTr("Stop and close")
            primary: true
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
        }
        NibButton {
            text: qsTr("Keep working")
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}
