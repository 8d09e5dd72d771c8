pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// One task tried by several agents at once (contract section 18's attempts): the folder
// (a git repository), the task, two to six agents (Nib's own among them), the base
// branch and a check command run in each run's worktree after its turn. Each run is a
// session in a worktree of its own; the first is shown. Return starts them (Ctrl+Return
// in the task), Escape keeps nothing.
Dialog {
    id: attemptDialog

    required property AppViews app
    required property Theme theme
    property var names: []
    property var chosen: ({})
    readonly property int count: {
        let n = 0
        for (const name in attemptDialog.chosen)
            n += attemptDialog.chosen[name] ? 1 : 0
        return n
    }
    readonly property bool ready: folderField.text.trim() !== "" && task.text.trim() !== ""
                                  && count >= 2 && count <= 6
                                  && app.sessions.folderProblem(folderField.text) === ""

    objectName: "attemptDialog"
    title: qsTr("Try a task with several agents")
    width: Math.max(300, Math.min(560, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    // the session whose composer the task comes from: its text is the task, its held
    // images and the files its text mentions with "@" go with each run
    property string source: ""
    property int images: 0
    // the check as the user typed it ("": the one recalled for the repository is offered)
    property bool checkTyped: false
    onOpened: {
        attemptDialog.names = attemptDialog.app.worktree.agentNames()
        attemptDialog.chosen = ({})
        attemptDialog.source = attemptDialog.app.sessions.currentId
        attemptDialog.images = attemptDialog.source !== "" ? attemptDialog.app.composer.images.rowCount() : 0
        task.text = attemptDialog.app.composer.draft(attemptDialog.source)
        folderField.text = attemptDialog.app.sessions.lastFolder(attemptDialog.app.sessions.currentAgent)
        attemptDialog.checkTyped = false
        checkField.text = ""
        folderField.selectAll()
        folderField.forceActiveFocus()
        recall.restart()  // asked at each opening: the folder may be as it was last time
    }
    onAccepted: {
        const agents = attemptDialog.names.filter(name => attemptDialog.chosen[name])
        attemptDialog.app.worktree.tryAgents(folderField.text.trim(), task.text, agents,
                                             baseField.text, checkField.text, attemptDialog.source)
    }
    // the repository's last check offered, a moment after its folder is typed
    Timer {
        id: recall
        interval: 250
        onTriggered: attemptDialog.app.worktree.recallCheck(folderField.text)
    }
    Connections {
        target: attemptDialog.app.worktree
        function onChanged(): void {
            const told = attemptDialog.app.worktree.recalledCheck(folderField.text)
            if (!attemptDialog.checkTyped && told !== "")
                checkField.text = told
        }
    }

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 6
        TextField {
            id: folderField
            objectName: "attemptFolder"
            Layout.fillWidth: true
            placeholderText: qsTr("The repository: ~/src/project")
            Accessible.name: qsTr("Folder of the repository")
            onTextChanged: recall.restart()
            Keys.onReturnPressed: if (attemptDialog.ready) attemptDialog.accept()
        }
        TextArea {
            id: task
            // Tab and Shift+Tab move on, as in every field of a dialog (a tab character is
            // rarely what is meant here)
            Keys.onTabPressed: (event) => {
                task.nextItemInFocusChain(true).forceActiveFocus(Qt.TabFocusReason)
                event.accepted = true
            }
            Keys.onBacktabPressed: (event) => {
                task.nextItemInFocusChain(false).forceActiveFocus(Qt.BacktabFocusReason)
                event.accepted = true
            }
            // Return adds a line; Ctrl+Return starts the runs
            Keys.onPressed: (event) => {
                if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                        && (event.modifiers & Qt.ControlModifier) && attemptDialog.ready) {
                    attemptDialog.accept()
                    event.accepted = true
                }
            }
            objectName: "attemptTask"
            Layout.fillWidth: true
            Layout.preferredHeight: 72
            wrapMode: TextEdit.Wrap
            placeholderText: qsTr("The task, as you would send it")
            Accessible.name: qsTr("The task")
        }
        Label {
            objectName: "attemptAttachments"
            visible: attemptDialog.images > 0 || task.text.indexOf("@") >= 0
            Layout.fillWidth: true
            wrapMode: Text.Wrap
            text: (attemptDialog.images === 1 ? qsTr("The image from the composer goes with each run. ")
                   : attemptDialog.images > 1 ? qsTr("%1 images from the composer go with each run. ").arg(attemptDialog.images) : "")
                  + (task.text.indexOf("@") >= 0 ? qsTr("Files named with @ go with each run.") : "")
            color: attemptDialog.theme.muted
            font.pixelSize: 12
        }
        Label {
            text: qsTr("Agents (two to six):")
            color: attemptDialog.theme.text
        }
        Repeater {
            model: attemptDialog.names
            delegate: NibCheckBox {
                theme: attemptDialog.theme
                required property string modelData
                objectName: "attemptAgent_" + modelData
                text: modelData === "nib" ? qsTr("Nib's own agent") : modelData
                Accessible.name: text
                Keys.onReturnPressed: if (attemptDialog.ready) attemptDialog.accept()
                onCheckedChanged: {
                    const next = Object.assign({}, attemptDialog.chosen)
                    next[modelData] = checked
                    attemptDialog.chosen = next
                }
            }
        }
        TextField {
            id: baseField
            objectName: "attemptBase"
            Layout.fillWidth: true
            placeholderText: qsTr("Base: the branch checked out")
            Accessible.name: qsTr("Base branch")
        }
        TextField {
            id: checkField
            objectName: "attemptCheck"
            Layout.fillWidth: true
            placeholderText: qsTr("Check, run in each after its turn (optional): pytest -q")
            Accessible.name: qsTr("Check command")
            onTextEdited: attemptDialog.checkTyped = true
            Keys.onReturnPressed: if (attemptDialog.ready) attemptDialog.accept()
        }
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "startAttempt"
            text: qsTr("Start")
            primary: true
            enabled: attemptDialog.ready
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
