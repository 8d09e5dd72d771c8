pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// An agent's own earlier sessions (contract section 20): the folder typed, Return lists
// them as the agent gives them (newest first, paged: "More"), each marked when it is in
// Nib already; Return on one opens it as a Nib session, its history kept. Escape closes.
Dialog {
    id: earlierDialog

    required property AppViews app
    required property Theme theme
    readonly property EarlierView earlier: app.earlier
    // the folder typed last in this run ("": none yet; the agent's newest session's)
    property string lastFolder: ""

    objectName: "earlierDialog"
    title: qsTr("Earlier %1 sessions").arg(earlierDialog.earlier.agent)
    width: Math.max(300, Math.min(600, parent.width - 40))
    height: Math.max(240, Math.min(520, parent.height - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    standardButtons: Dialog.Close
    onOpened: {
        folderField.text = earlierDialog.lastFolder !== "" ? earlierDialog.lastFolder
            : earlierDialog.app.sessions.lastFolder(earlierDialog.earlier.agent)
        folderField.selectAll()
        folderField.forceActiveFocus()
    }
    function openRow(index: int): void {
        earlierDialog.earlier.open(index)
        earlierDialog.close()
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 6
        TextField {
            id: folderField
            objectName: "earlierFolder"
            Layout.fillWidth: true
            placeholderText: qsTr("~/src/project")
            Accessible.name: qsTr("Folder whose earlier sessions are listed")
            Keys.onReturnPressed: {
                earlierDialog.lastFolder = text.trim()
                earlierDialog.earlier.listFor(text.trim())
                sessionList.forceActiveFocus()
            }
        }
        Text {
            objectName: "earlierNote"
            Layout.fillWidth: true
            visible: text !== ""
            text: earlierDialog.earlier.note
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: earlierDialog.theme.muted
        }
        ListView {
            id: sessionList
            objectName: "earlierList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: earlierDialog.earlier.rows
            keyNavigationEnabled: true
            activeFocusOnTab: true
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Earlier sessions")
            Keys.onReturnPressed: if (currentIndex >= 0) earlierDialog.openRow(currentIndex)
            delegate: ItemDelegate {
                id: row
                required property int index
                required property string title
                required property string when
                required property string folder
                required property string imported
                required property string accessible
                width: ListView.view.width
                highlighted: ListView.isCurrentItem
                text: row.title + "   " + row.when + (row.imported !== "" ? qsTr("   · in Nib") : "")
                Accessible.name: row.accessible
                onClicked: earlierDialog.openRow(row.index)
            }
        }
        NibButton {
            objectName: "earlierMore"
            visible: earlierDialog.earlier.hasMore
            text: qsTr("More")
            Accessible.name: qsTr("More earlier sessions")
            onClicked: earlierDialog.earlier.more()
        }
    }
}
