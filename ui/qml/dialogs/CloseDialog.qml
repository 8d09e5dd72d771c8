pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib
import ".."

// Closing while turns run asks first: closing stops this machine's (the host ends with
// the app); those on remote hosts are stopped too, or left running there, as chosen.
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

    readonly property int remote: closeDialog.app.sessions.remoteRunningCount

    function stopAll(): void {
        closeDialog.app.sessions.closeChoice(true)
        closeDialog.accept()
    }

    Label {
        objectName: "closeText"
        width: closeDialog.availableWidth
        focus: true
        text: !closeDialog.visible ? ""
              : (closeDialog.app.sessions.runningCount === 1
                 ? qsTr("1 turn is still running. Closing Nib Desktop stops it; its checklist and transcript are kept.")
                 : qsTr("%1 turns are still running. Closing Nib Desktop stops them; their checklists and transcripts are kept.").arg(closeDialog.app.sessions.runningCount))
                + (closeDialog.remote === 0 ? ""
                   : closeDialog.remote === 1
                     ? qsTr(" 1 of them runs on a remote host: it can go on running there, and is shown here again when you open Nib Desktop.")
                     : qsTr(" %1 of them run on remote hosts: they can go on running there, and are shown here again when you open Nib Desktop.").arg(closeDialog.remote))
        wrapMode: Text.Wrap
        Keys.onReturnPressed: closeDialog.stopAll()
        Keys.onEnterPressed: closeDialog.stopAll()
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "confirmClose"
            text: closeDialog.remote > 0 ? qsTr("Stop all and close") : qsTr("Stop and close")
            primary: true
            Accessible.name: text
            onClicked: closeDialog.stopAll()
        }
        NibButton {
            objectName: "leaveRemoteRunning"
            visible: closeDialog.remote > 0
            text: qsTr("Close, leave the remote ones running")
            Accessible.name: text
            onClicked: {
                closeDialog.app.sessions.closeChoice(false)
                closeDialog.accept()
            }
        }
        NibButton {
            text: qsTr("Keep working")
            Accessible.name: text
            DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
        }
    }
}
