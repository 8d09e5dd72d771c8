pragma ComponentBehavior: Bound
import QtQuick

// One revision in the History view: its number, time and what changed (in the warning
// colour when it dropped steps unfinished); a click shows it read-only.
Rectangle {
    id: entry

    required property ListView list
    required property Theme theme
    signal chosen(int revision)
    required property int index
    required property int revision
    required property string time
    required property string summary
    required property bool warning
    required property string accessibleName
    required property string files  // "2 files" changed in its interval: a click opens them
    signal filesChosen(int revision)

    objectName: "historyRow"
    width: entry.list.width
    implicitHeight: entryText.implicitHeight + 8
    color: ListView.isCurrentItem && entry.list.activeFocus ? entry.theme.selection : "transparent"
    Accessible.role: Accessible.ListItem
    Accessible.name: accessibleName

    Text {
        id: entryText
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.verticalCenter: parent.verticalCenter
        anchors.leftMargin: 10
        anchors.rightMargin: 14
        text: qsTr("Revision %1 · %2 · %3").arg(entry.revision).arg(entry.time).arg(entry.summary)
              + (entry.files !== "" ? qsTr(" · %1 ▸").arg(entry.files) : "")
        textFormat: Text.PlainText
        wrapMode: Text.Wrap
        maximumLineCount: 3
        elide: Text.ElideRight
        FullTextTip { target: parent }
        color: entry.warning ? entry.theme.warning : entry.theme.text
        font.pixelSize: 12
    }
    MouseArea {
        anchors.fill: parent
        onClicked: {
            entry.list.currentIndex = entry.index
            entry.chosen(entry.revision)
        }
    }
    // its files, at its right end
    MouseArea {
        objectName: "historyFiles"
        visible: entry.files !== ""
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.bottom: parent.bottom
        width: 90
        cursorShape: Qt.PointingHandCursor
        onClicked: entry.filesChosen(entry.revision)
    }
}
