pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// Ctrl+Shift+E: the shown session written as Markdown (its transcript, checklist and
// the checklist's history) to a file, the path checked as it is typed. A file already
// there is replaced only once the user says so.
Dialog {
    id: exportDialog

    required property AppViews app
    required property Theme theme
    property string sessionId: ""
    readonly property string problem: exportDialog.visible ? exportDialog.app.library.exportProblem(pathField.text) : ""
    readonly property bool ready: problem === "" || (problem === "replace" && replaceBox.checked)

    objectName: "exportDialog"
    title: qsTr("Export the session as Markdown")
    width: Math.max(280, Math.min(520, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onOpened: {
        exportDialog.sessionId = exportDialog.app.sessions.currentId
        pathField.text = exportDialog.app.library.exportPath(exportDialog.sessionId)
        replaceBox.checked = false
        pathField.forceActiveFocus()
    }
    onAccepted: exportDialog.app.library.export(exportDialog.sessionId, pathField.text.trim(),
                                                exportDialog.problem === "replace")

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 6
        Label {
            text: qsTr("File")
            color: exportDialog.theme.text
        }
        TextField {
            id: pathField
            objectName: "exportField"
            Layout.fillWidth: true
            Accessible.name: qsTr("File to write")
            onTextEdited: replaceBox.checked = false
            Keys.onReturnPressed: if (exportDialog.ready) exportDialog.accept()
            Keys.onEnterPressed: if (exportDialog.ready) exportDialog.accept()
        }
        Text {
            objectName: "exportProblem"
            Layout.fillWidth: true
            visible: exportDialog.problem !== "" && exportDialog.problem !== "replace"
            text: exportDialog.problem
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: exportDialog.theme.danger
            font.pixelSize: 12
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
        NibCheckBox {
            id: replaceBox
            theme: exportDialog.theme
            objectName: "exportReplace"
            visible: exportDialog.problem === "replace"
            text: qsTr("A file is there: replace it")
            Accessible.name: text
            Keys.onReturnPressed: if (exportDialog.ready) exportDialog.accept()  // as from its field
            Keys.onEnterPressed: if (exportDialog.ready) exportDialog.accept()
        }
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "confirmExport"
            text: qsTr("Export")
            primary: true
            enabled: exportDialog.ready
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
