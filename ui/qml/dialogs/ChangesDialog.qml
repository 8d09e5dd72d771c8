pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// The Changes view: what each step, the last turn and the whole session changed in the
// session's folder, each file's diff, and a restore to before the chosen one (asked
// first, saying which files change), undone from here.
Dialog {
    id: changesDialog

    required property AppViews app
    required property Theme theme
    readonly property ChangesView changes: app.changes
    // the question before a restore, once the host said what it will change
    readonly property string question: changes.question
    objectName: "changesDialog"
    title: qsTr("Changes in the folder")
    width: Math.max(320, Math.min(1100, parent.width - 40))
    height: Math.max(240, Math.min(760, parent.height - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    standardButtons: Dialog.Close
    onOpened: scopeList.forceActiveFocus()
    onClosed: changes.close()
    onQuestionChanged: question !== "" ? confirm.open() : confirm.close()

    ColumnLayout {
        anchors.fill: parent
        spacing: 6
        Text {
            objectName: "changesNote"
            Layout.fillWidth: true
            visible: text !== ""
            text: changesDialog.changes.note
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: changesDialog.theme.muted
        }
        Text {
            objectName: "changesUndoWords"
            Layout.fillWidth: true
            visible: changesDialog.changes.undoWords !== ""
            text: changesDialog.changes.undoWords
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: changesDialog.theme.text
        }
        SplitView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            visible: scopeList.count > 0
            ColumnLayout {
                SplitView.preferredWidth: Math.min(300, changesDialog.availableWidth * 0.3)
                Text {
                    text: qsTr("Steps and turns")
                    font.bold: true
                    color: changesDialog.theme.text
                }
                ChangeList {
                    id: scopeList
                    objectName: "changeScopes"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    theme: changesDialog.theme
                    model: changesDialog.changes.scopes
                    chosen: changesDialog.changes.scopeIndex
                    Accessible.name: qsTr("Steps and turns")
                    onPicked: (index) => changesDialog.changes.chooseScope(index)
                }
                Text {
                    text: qsTr("Files")
                    font.bold: true
                    color: changesDialog.theme.text
                }
                ChangeList {
                    id: fileList
                    objectName: "changeFiles"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    theme: changesDialog.theme
                    model: changesDialog.changes.files
                    chosen: changesDialog.changes.fileIndex
                    Accessible.name: qsTr("Files changed")
                    onPicked: (index) => changesDialog.changes.chooseFile(index)
                }
            }
            ScrollView {
                SplitView.fillWidth: true
                clip: true
                TextArea {
                    objectName: "changeDiff"
                    readOnly: true
                    selectByMouse: true
                    activeFocusOnTab: true
                    // made by the view from the diff's text, every character escaped
                    textFormat: TextEdit.RichText
                    text: changesDialog.changes.diffHtml
                    font.family: "monospace"
                    color: changesDialog.theme.text
                    wrapMode: TextEdit.NoWrap
                    Accessible.name: qsTr("The file's changes")
                    Accessible.description: qsTr("R reverts the part the cursor is in")
                    // "↶ revert this part" after each hunk's "@@" line, or R where the cursor is
                    onLinkActivated: (link) => {
                        if (link.startsWith("hunk:"))
                            changesDialog.changes.revertHunk(parseInt(link.slice(5)))
                    }
                    Keys.onPressed: (event) => {
                        if (event.key !== Qt.Key_R || event.modifiers !== Qt.NoModifier)
                            return
                        const before = getText(0, cursorPosition).split("\n")
                        const hunks = before.filter(line => line.startsWith("@@ ")).length
                        changesDialog.changes.revertHunk(Math.max(0, hunks - 1))
                        event.accepted = true
                    }
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            visible: scopeList.count > 0
            Text {
                Layout.fillWidth: true
                text: changesDialog.changes.running ? qsTr("The agent is working: restore once its turn ends.") : ""
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: changesDialog.theme.warning
            }
            NibButton {
                objectName: "undoRestoreButton"
                visible: changesDialog.changes.undoWords !== "" && !changesDialog.changes.running
                text: qsTr("Undo the restore")
                Accessible.name: text
                onClicked: changesDialog.changes.undo()
            }
            NibButton {
                objectName: "restoreFileButton"
                enabled: fileList.count > 0 && !changesDialog.changes.running && changesDialog.changes.restorable
                text: qsTr("Restore this file")
                Accessible.name: text
                onClicked: changesDialog.changes.askRestore(true)
            }
            NibButton {
                objectName: "restoreScopeButton"
                enabled: fileList.count > 0 && !changesDialog.changes.running && changesDialog.changes.restorable
                text: qsTr("Restore the folder to before this")
                Accessible.name: text
                onClicked: changesDialog.changes.askRestore(false)
            }
        }
    }

    Dialog {
        id: confirm
        objectName: "restoreConfirm"
        title: changesDialog.changes.reverting ? qsTr("Revert this part?") : qsTr("Restore files?")
        width: Math.max(260, Math.min(480, changesDialog.width - 40))
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        focus: true
        onAccepted: changesDialog.changes.confirmRestore()
        onRejected: changesDialog.changes.dropQuestion()
        Label {
            width: confirm.availableWidth
            focus: true
            text: changesDialog.question
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            Keys.onReturnPressed: confirm.accept()
            Keys.onEnterPressed: confirm.accept()
        }
        footer: DialogButtonBox {
            NibButton {
                objectName: "confirmRestore"
                text: changesDialog.changes.reverting ? qsTr("Revert") : qsTr("Restore")
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
}
