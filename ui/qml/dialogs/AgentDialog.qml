pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// A new session on a configured ACP agent (Claude Code, Codex, …): the folder it works
// in, typed ("~/src/app"), and in a git repository optionally a new worktree of its own
// (base, branch, the uncommitted work carried); Return creates it, Escape keeps nothing.
Dialog {
    id: agentDialog

    required property AppViews app
    required property Theme theme
    // the agent's name as configured in settings.json
    property string agent: ""
    // the folder typed last in this run ("": none yet); else the one the newest session
    // of this agent was made in is offered, so it outlives a restart
    property string lastFolder: ""
    objectName: "agentDialog"

    // what is wrong with the folder as typed ("": nothing), checked as it is typed; and,
    // in a new worktree, with the branch's name
    readonly property bool inRepository: app.sessions.inRepository(folderField.text)
    readonly property bool worktree: inRepository && worktreeBox.checked
    readonly property string problem: app.sessions.folderProblem(folderField.text)
        || (worktree ? app.sessions.branchProblem(branchField.text) : "")
    function create(): void {
        if (folderField.text.trim() !== "" && agentDialog.problem === "")
            accept()
    }

    title: agentDialog.agent !== "" ? qsTr("New %1 session").arg(agentDialog.agent)
                                    : qsTr("New agent session in a folder")
    width: Math.max(260, Math.min(460, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onOpened: {
        folderField.text = agentDialog.lastFolder !== "" ? agentDialog.lastFolder
                                                         : agentDialog.app.sessions.lastFolder(agentDialog.agent)
        folderField.selectAll()
        folderField.forceActiveFocus()
    }
    onAccepted: {
        agentDialog.lastFolder = folderField.text.trim()
        if (agentDialog.worktree)
            agentDialog.app.sessions.createInWorktree(agentDialog.agent, agentDialog.lastFolder,
                                                      baseField.text, branchField.text, carryBox.checked)
        else
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
        NibCheckBox {
            id: worktreeBox
            theme: agentDialog.theme
            objectName: "worktreeBox"
            visible: agentDialog.inRepository
            text: qsTr("In a new worktree: a branch of its own, your checkout left as it is")
            Accessible.name: text
            Keys.onReturnPressed: agentDialog.create()  // as from a field: Space ticks it
            Keys.onEnterPressed: agentDialog.create()
        }
        GridLayout {
            visible: agentDialog.worktree
            Layout.fillWidth: true
            columns: 2
            Label { text: qsTr("Base"); color: agentDialog.theme.text }
            TextField {
                id: baseField
                objectName: "baseField"
                Layout.fillWidth: true
                placeholderText: qsTr("the branch checked out")
                Accessible.name: qsTr("Base branch of the worktree")
                Keys.onReturnPressed: agentDialog.create()
                Keys.onEnterPressed: agentDialog.create()
            }
            Label { text: qsTr("Branch"); color: agentDialog.theme.text }
            TextField {
                id: branchField
                objectName: "branchField"
                Layout.fillWidth: true
                placeholderText: qsTr("nib/… (made from the session)")
                Accessible.name: qsTr("Name of the worktree's new branch")
                Keys.onReturnPressed: agentDialog.create()
                Keys.onEnterPressed: agentDialog.create()
            }
        }
        NibCheckBox {
            id: carryBox
            theme: agentDialog.theme
            objectName: "carryBox"
            visible: agentDialog.worktree
            text: qsTr("Carry my uncommitted changes into it")
            Accessible.name: text
            Keys.onReturnPressed: agentDialog.create()
            Keys.onEnterPressed: agentDialog.create()
        }
        Text {
            Layout.fillWidth: true
            text: agentDialog.agent !== ""
                  ? qsTr("The agent reads and changes files there; it asks before what its settings say to ask.")
                  : qsTr("Nib's own agent works there; what changes is kept step by step in the Changes view.")
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
