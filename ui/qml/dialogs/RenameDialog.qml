pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// F2: the shown session renamed. The title is selected to be typed over; Return renames,
// Escape keeps the old one. A blank title is not taken.
Dialog {
    id: renameDialog

    required property AppViews app
    required property Theme theme
    property string sessionId: ""
    readonly property bool ready: titleField.text.trim() !== "" && titleField.text.trim().length <= 500

    objectName: "renameDialog"
    title: qsTr("Rename the session")
    width: Math.max(260, Math.min(460, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onOpened: {
        renameDialog.sessionId = renameDialog.app.sessions.currentId
        titleField.text = renameDialog.app.sessions.currentTitle
        titleField.selectAll()
        titleField.forceActiveFocus()
    }
    onAccepted: renameDialog.app.library.rename(renameDialog.sessionId, titleField.text.trim())

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 6
        TextField {
            id: titleField
            objectName: "renameField"
            Layout.fillWidth: true
            maximumLength: 500
            Accessible.name: qsTr("Title of the session")
            Keys.onReturnPressed: if (renameDialog.ready) renameDialog.accept()
            Keys.onEnterPressed: if (renameDialog.ready) renameDialog.accept()
        }
        Text {
            objectName: "renameProblem"
            Layout.fillWidth: true
            visible: !renameDialog.ready
            text: qsTr("A session needs a title")
            textFormat: Text.PlainText
            color: renameDialog.theme.danger
            font.pixelSize: 12
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "confirmRename"
            text: qsTr("Rename")
            primary: true
            enabled: renameDialog.ready
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
