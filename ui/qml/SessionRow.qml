pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// One session in the sidebar: its title (cut at its end, whole in the tooltip and the
// accessible name), its agent and folder, and what says whether it needs the user: the
// checklist's progress while it runs, how its last turn ended when it did not finish, a
// mark for a turn that finished while the user was elsewhere, "waits for you".
ItemDelegate {
    id: entry

    required property AppViews app
    required property Theme theme
    required property ListView list
    required property int index
    required property string sessionId
    required property string title
    required property string mode
    required property bool remote
    required property string remoteState
    required property bool running
    required property string agent
    required property string folder
    required property string progress
    required property string ended
    required property bool unseen
    required property bool waiting
    required property string accessible
    required property string group  // an attempt's heading, above its first run
    required property bool grouped  // a run of an attempt: indented under its heading

    objectName: "sessionRow"
    topPadding: entry.group !== "" ? entry.padding + 18 : entry.padding
    leftPadding: entry.grouped ? entry.padding + 12 : entry.padding
    width: entry.list.width
    focusPolicy: Qt.NoFocus
    highlighted: sessionId === entry.app.sessions.currentId
    onHighlightedChanged: if (highlighted) entry.list.currentIndex = index
    Component.onCompleted: if (highlighted) entry.list.currentIndex = index
    onClicked: entry.app.sessions.show(sessionId)
    Accessible.role: Accessible.ListItem
    Accessible.name: accessible

    Text {
        objectName: "sessionGroup"
        visible: entry.group !== ""
        x: entry.padding
        y: 4
        width: entry.width - 2 * entry.padding
        text: entry.group
        textFormat: Text.PlainText
        elide: Text.ElideRight
        color: entry.theme.muted
        font.pixelSize: 11
    }

    background: Rectangle {
        color: entry.highlighted ? entry.theme.selection
             : entry.hovered ? entry.theme.surface : "transparent"
        radius: 4
        border.width: entry.highlighted && entry.list.activeFocus ? 2 : 0
        border.color: entry.theme.accent
    }

    contentItem: RowLayout {
        spacing: 6
        // running: a filled dot; finished while the user was elsewhere: a ring
        Rectangle {
            objectName: "sessionMark"
            visible: entry.running || entry.unseen
            implicitWidth: 8
            implicitHeight: 8
            radius: 4
            color: entry.running ? entry.theme.accent : "transparent"
            border.width: entry.running ? 0 : 2
            border.color: entry.theme.accent
            ToolTip.visible: markHover.hovered
            ToolTip.text: entry.running ? qsTr("Running") : qsTr("Finished while you were away")
            HoverHandler { id: markHover }
        }
        ColumnLayout {
            Layout.fillWidth: true
            spacing: 0
            Text {
                objectName: "sessionTitle"
                Layout.fillWidth: true
                text: entry.title
                textFormat: Text.PlainText
                // a title ending in "(fork)" or "(2)" is cut in its middle: two such rows
                // never read the same
                readonly property bool elideMiddle: entry.title.endsWith(")")
                elide: elideMiddle ? Text.ElideMiddle : Text.ElideRight
                FullTextTip { target: parent }
                color: entry.theme.text
                font.bold: entry.unseen
            }
            // an external agent's session: which agent, in which folder
            Text {
                objectName: "sessionAgent"
                Layout.fillWidth: true
                visible: entry.agent !== ""
                text: entry.agent + " · " + entry.folder
                textFormat: Text.PlainText
                // a folder keeps both its ends; a worktree's branch is read from its start
                elide: entry.folder.startsWith("⎇") ? Text.ElideRight : Text.ElideMiddle
                FullTextTip { target: parent }
                color: entry.theme.muted
                font.pixelSize: 11
            }
        }
        Text {
            objectName: "sessionProgress"
            visible: text !== ""
            text: entry.waiting ? qsTr("waits for you") : entry.progress !== "" ? entry.progress : entry.ended
            textFormat: Text.PlainText
            color: entry.waiting ? entry.theme.warning
                 : entry.ended === "failed" || entry.ended === "unreachable" ? entry.theme.danger
                 : entry.theme.muted
            font.pixelSize: 11
        }
        Text {
            objectName: "sessionMode"
            visible: entry.mode !== "agent"
            text: entry.mode
            color: entry.theme.muted
            font.pixelSize: 11
        }
        Rectangle {
            visible: entry.remote
            implicitWidth: badge.implicitWidth + 8
            implicitHeight: badge.implicitHeight + 2
            radius: 3
            color: "transparent"
            border.color: badge.color
            Text {
                id: badge
                objectName: "remoteBadge"
                anchors.centerIn: parent
                text: entry.remoteState === "unreachable" ? qsTr("unreachable")
                      : entry.remoteState === "connecting" ? qsTr("connecting")
                      : qsTr("remote")
                color: entry.remoteState === "unreachable" ? entry.theme.danger
                                                           : entry.theme.muted
                font.pixelSize: 10
            }
        }
    }
}
