pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// Attach a session of a remote host, or create one there: the endpoint checked as
// typed, the host's sessions listed on request.
Dialog {
    id: remoteDialog

    required property AppViews app
    required property Theme theme
    objectName: "remoteDialog"
    readonly property string problem: endpointField.text.trim() === "" ? ""
                                      : remoteDialog.app.remote.problem(endpointField.text)
    // what the host said of the folder typed there, checked on its machine as it is typed
    property var folderCheck: ({ problem: "", sure: false, repository: true })
    readonly property bool ready: endpointField.text.trim() !== "" && problem === ""
                                  && !(remoteIdField.text.trim() === "" && folderCheck.sure
                                       && folderCheck.problem !== "")
    function readFolderCheck(): void {
        remoteDialog.folderCheck = remoteDialog.app.remote.folderCheck(endpointField.text, folderField.text)
    }
    Timer {
        id: folderTimer
        interval: 300
        onTriggered: remoteDialog.app.remote.checkFolder(endpointField.text, folderField.text)
    }
    Connections {
        target: remoteDialog.app.remote
        function onFolderChecked(): void { remoteDialog.readFolderCheck() }
    }

    function attach(): void {
        if (ready)
            accept()
    }

    title: qsTr("Open a remote session")
    width: Math.max(260, Math.min(460, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onOpened: {
        endpointField.clear()
        remoteIdField.clear()
        folderField.clear()
        worktreeBox.checked = false
        remoteDialog.app.remote.list("")
        endpointField.forceActiveFocus()
    }
    onAccepted: remoteDialog.app.remote.attach(endpointField.text.trim(), remoteIdField.text.trim(),
                                               agentBox.currentText, folderField.text.trim(),
                                               worktreeBox.checked)

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 6
        Label {
            text: qsTr("Remote host")
            color: remoteDialog.theme.text
        }
        TextField {
            id: endpointField
            objectName: "endpointField"
            Layout.fillWidth: true
            placeholderText: qsTr("ssh://user@host or unix:/path/to/socket")
            Accessible.name: qsTr("Remote host")
            Accessible.description: qsTr("ssh://user@host:port or unix:/path/to/socket")
            Keys.onReturnPressed: remoteIdField.forceActiveFocus()
            Keys.onEnterPressed: remoteIdField.forceActiveFocus()
        }
        Text {
            objectName: "endpointProblem"
            Layout.fillWidth: true
            visible: remoteDialog.problem !== ""
            text: remoteDialog.problem
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: remoteDialog.theme.danger
            font.pixelSize: 12
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
        Label {
            text: qsTr("Session id on that host")
            color: remoteDialog.theme.text
        }
        RowLayout {
            Layout.fillWidth: true
            TextField {
                id: remoteIdField
                objectName: "remoteIdField"
                Layout.fillWidth: true
                placeholderText: qsTr("blank: a new session there")
                Accessible.name: qsTr("Session id on that host")
                Accessible.description: qsTr("Leave it blank to start a new session on that host")
                Keys.onReturnPressed: remoteDialog.attach()
                Keys.onEnterPressed: remoteDialog.attach()
            }
            NibButton {
                objectName: "listRemoteButton"
                text: qsTr("Sessions there…")
                enabled: remoteDialog.ready
                palette.buttonText: enabled ? remoteDialog.theme.text : remoteDialog.theme.disabledText
                Accessible.name: qsTr("List the sessions on that host")
                onClicked: remoteDialog.app.remote.list(endpointField.text.trim())
            }
        }
        Text {
            objectName: "remoteChoicesNote"
            Layout.fillWidth: true
            visible: text !== ""
            text: remoteDialog.app.remote.note
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: remoteDialog.theme.muted
            font.pixelSize: 12
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        // a new session there: on which of that host's agents, in which of its folders
        GridLayout {
            objectName: "newThere"
            Layout.fillWidth: true
            visible: remoteIdField.text.trim() === ""
            columns: 2
            columnSpacing: 8
            Label {
                text: qsTr("Agent there")
                color: remoteDialog.theme.text
            }
            ComboBox {
                id: agentBox
                objectName: "remoteAgentBox"
                Layout.fillWidth: true
                model: remoteDialog.app.remote.agentNames()
                // the chosen name as plain text: the box itself is what is named and read
                contentItem: Text {
                    leftPadding: 8
                    text: agentBox.displayText
                    textFormat: Text.PlainText
                    color: remoteDialog.theme.text
                    verticalAlignment: Text.AlignVCenter
                    elide: Text.ElideRight
                    Accessible.ignored: true
                }
                Connections {  // listed with the host's sessions
                    target: remoteDialog.app.remote
                    function onChoicesChanged(): void {
                        agentBox.model = remoteDialog.app.remote.agentNames()
                    }
                }
                Accessible.name: qsTr("Agent on that host")
                Accessible.description: qsTr("Its agents are listed with its sessions")
            }
            Label {
                text: qsTr("Folder there")
                color: remoteDialog.theme.text
            }
            TextField {
                id: folderField
                objectName: "remoteFolderField"
                Layout.fillWidth: true
                placeholderText: qsTr("blank: its home folder")
                Accessible.name: qsTr("Folder on that host")
                Accessible.description: qsTr("An absolute path on the remote machine")
                Keys.onReturnPressed: remoteDialog.attach()
                Keys.onEnterPressed: remoteDialog.attach()
                onTextChanged: { remoteDialog.readFolderCheck(); folderTimer.restart() }
            }
            Label {
                objectName: "remoteFolderProblem"
                Layout.columnSpan: 2
                Layout.fillWidth: true
                visible: text !== ""
                text: remoteDialog.folderCheck.problem
                wrapMode: Text.Wrap
                color: remoteDialog.folderCheck.sure ? remoteDialog.theme.danger : remoteDialog.theme.muted
                font.pixelSize: 12
                Accessible.role: Accessible.AlertMessage
                Accessible.name: text
            }
            NibCheckBox {
                id: worktreeBox
                theme: remoteDialog.theme
                objectName: "remoteWorktreeBox"
                Layout.columnSpan: 2
                text: qsTr("In a new worktree of that folder's repository")
                enabled: folderField.text.trim() !== "" && remoteDialog.folderCheck.repository
                Accessible.name: text
                Keys.onReturnPressed: remoteDialog.attach()  // as from a field: Space ticks it
                Keys.onEnterPressed: remoteDialog.attach()
            }
        }
        ListView {
            id: choices
            objectName: "remoteChoices"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, 160)
            visible: count > 0
            clip: true
            model: remoteDialog.app.remote.choices
            activeFocusOnTab: true
            keyNavigationEnabled: true
            Keys.onReturnPressed: {
                if (currentIndex < 0 && count > 0)
                    currentIndex = 0
                if (currentItem)
                    (currentItem as ItemDelegate).clicked()
            }
            // the user asked for the list: it takes the focus once it arrives
            Connections {
                target: remoteDialog.app.remote
                function onChoicesChanged(): void {
                    if (choices.count > 0 && remoteDialog.opened) {
                        choices.currentIndex = 0
                        choices.forceActiveFocus()
                    }
                }
            }
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Sessions on that host")
            delegate: ItemDelegate {
                id: choice
                required property string choiceId
                required property string title
                required property int index
                width: choices.width
                text: title + " · " + choiceId
                highlighted: choices.currentIndex === index
                Accessible.name: text
                onClicked: { remoteIdField.text = choiceId; remoteIdField.forceActiveFocus() }
            }
        }
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "attachButton"
            palette.buttonText: enabled ? remoteDialog.theme.text : remoteDialog.theme.disabledText
            text: remoteIdField.text.trim() === "" ? qsTr("Create there") : qsTr("Attach")
            primary: true
            enabled: remoteDialog.ready
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
