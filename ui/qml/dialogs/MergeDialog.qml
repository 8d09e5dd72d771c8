pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// The shown session's worktree merged into its base (contract section 18): how it stands
// first (read again as the dialog opens), the conflicts a merge would meet named before
// anything is written; squash (the default), merge or rebase; the commit message, by
// default the session's title and its checklist. Return merges, Escape keeps nothing.
Dialog {
    id: mergeDialog

    required property AppViews app
    required property Theme theme
    readonly property WorktreeView worktree: app.worktree
    readonly property bool ready: worktree.branch !== "" && worktree.conflicts === ""
    property string how: "squash"

    objectName: "mergeDialog"
    title: qsTr("Merge ⎇ %1 into its base").arg(worktree.branch)
    width: Math.max(280, Math.min(520, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onOpened: {
        mergeDialog.worktree.read()
        squash.checked = true
        message.text = mergeDialog.worktree.message  // the title and the checklist, editable
        squash.forceActiveFocus()
    }
    onAccepted: mergeDialog.worktree.merge(mergeDialog.how, message.text)

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 6
        Text {
            objectName: "mergeSummary"
            Layout.fillWidth: true
            text: mergeDialog.worktree.summary
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: mergeDialog.theme.text
        }
        Text {
            objectName: "mergeConflicts"
            Layout.fillWidth: true
            visible: text !== ""
            text: mergeDialog.worktree.conflicts
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: mergeDialog.theme.danger
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
        RadioButton {
            id: squash
            objectName: "mergeSquash"
            text: qsTr("Squash: one commit on the base")
            onCheckedChanged: if (checked) mergeDialog.how = "squash"
            Keys.onReturnPressed: if (mergeDialog.ready) mergeDialog.accept()
        }
        RadioButton {
            objectName: "mergeMerge"
            text: qsTr("Merge: the branch's commits and a merge commit")
            onCheckedChanged: if (checked) mergeDialog.how = "merge"
            Keys.onReturnPressed: if (mergeDialog.ready) mergeDialog.accept()
        }
        RadioButton {
            objectName: "mergeRebase"
            text: qsTr("Rebase: the branch's commits onto the base, in a line")
            onCheckedChanged: if (checked) mergeDialog.how = "rebase"
            Keys.onReturnPressed: if (mergeDialog.ready) mergeDialog.accept()
        }
        Label {
            text: qsTr("Commit message")
            color: mergeDialog.theme.text
        }
        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: 96
            TextArea {
                id: message
                // Tab and Shift+Tab move on, as in every field of a dialog (a tab character is
                // rarely what is meant here)
                Keys.onTabPressed: (event) => {
                    message.nextItemInFocusChain(true).forceActiveFocus(Qt.TabFocusReason)
                    event.accepted = true
                }
                Keys.onBacktabPressed: (event) => {
                    message.nextItemInFocusChain(false).forceActiveFocus(Qt.BacktabFocusReason)
                    event.accepted = true
                }
                objectName: "mergeMessage"
                wrapMode: TextEdit.Wrap
                textFormat: TextEdit.PlainText
                placeholderText: qsTr("The session's title and its checklist")
                Accessible.name: qsTr("Commit message")
                // Return adds a line; Ctrl+Return merges
                Keys.onPressed: (event) => {
                    if ((event.key === Qt.Key_Return || event.key === Qt.Key_Enter)
                            && (event.modifiers & Qt.ControlModifier) && mergeDialog.ready) {
                        mergeDialog.accept()
                        event.accepted = true
                    }
                }
            }
        }
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "confirmMerge"
            text: qsTr("Merge")
            primary: true
            enabled: mergeDialog.ready
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
