pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// A new session on a configured ACP agent (Claude Code, Codex, …): the folder it works
// in, typed ("~/src/app"); Return creates it, Escape keeps nothing.
Dialog {
    id: agentDialog

    required property AppViews app
    required property Theme theme
    // the agent's name as configured in settings.json
    property string agent: ""
    // the folder the last agent session was made in, offered again
    property string lastFolder: "~"
    objectName: "agentDialog"

    // what is wrong with the folder as typed ("": nothing), checked as it is typed
    readonly property string problem: app.sessions.folderProblem(folderField.text)
    function create(): void {
        if (folderField.text.trim() !== "" && agentDialog.problem === "")
            accept()
    }

    title: qsTr("New %1 session").arg(agentDialog.agent)
    width: Math.max(260, Math.min(460, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onOpened: {
        folderField.text = agentDialog.lastFolder
        folderField.selectAll()
        folderField.forceActiveFocus()
    }
    onAccepted: {
        agentDialog.lastFolder = folderField.text.trim()
        agentDialog.app.sessions.createOn(agentDialog.agent, agentDialog.lastFolder)
    }

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 6
        Label {
            text: qsTr("Folder it works in")
            color: agentDialog.theme.text
        }
        TextField {
            id: folderField
            objectName: "folderField"
            Layout.fillWidth: true
            placeholderText: qsTr("~/src/project")
            Accessible.name: qsTr("Folder the agent works in")
            Keys.onReturnPressed: agentDialog.create()
            Keys.onEnterPressed: agentDialog.create()
        }
        Text {
            objectName: "folderProblem"
            Layout.fillWidth: true
            visible: text !== ""
            text: agentDialog.problem
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: agentDialog.theme.danger
            font.pixelSize: 12
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
        Text {
            Layout.fillWidth: true
            text: qsTr("The agent reads and changes files there; it asks before what its settings say to ask.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: agentDialog.theme.muted
            font.pixelSize: 12
        }
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "createAgentSession"
            text: qsTr("Create")
            primary: true
            enabled: folderField.text.trim() !== "" && agentDialog.problem === ""
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
