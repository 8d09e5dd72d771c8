pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib

// The current session's transcript: plain text; tool calls and results as compact lines.
Item {
    id: transcript

    required property MainController controller
    required property Theme theme

    Column {
        objectName: "emptyState"
        anchors.centerIn: parent
        width: Math.min(parent.width - 48, 520)
        spacing: 10
        visible: list.count === 0
        Text {
            width: parent.width
            text: transcript.controller.currentRemote
                  ? qsTr("This is a remote session.")
                  : qsTr("Describe a multi-step task below.")
            textFormat: Text.PlainText
            font.pixelSize: 18
            color: transcript.theme.text
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
        }
        Text {
            width: parent.width
            text: transcript.controller.currentRemote
                  ? qsTr("Its transcript and checklist live on the remote host and are not shown here yet.")
                  : qsTr("For example: “Add a dark mode: 1. add the setting 2. theme the sidebar 3. write tests”. The agent keeps a checklist of its steps above the input; press Ctrl+T to open it.")
            textFormat: Text.PlainText
            color: transcript.theme.muted
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
        }
    }

    ListView {
        id: list
        objectName: "transcriptList"
        anchors.fill: parent
        anchors.margins: 16
        clip: true
        spacing: 8
        model: transcript.controller.transcript
        onCountChanged: positionViewAtEnd()
        ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus }

        delegate: Item {
            id: entry
            required property string kind
            required property string text
            required property bool isError
            required property bool warning

            readonly property bool compact: kind === "tool_call" || kind === "tool_result" || kind === "todo"
            width: list.width
            implicitHeight: bubble.implicitHeight

            Rectangle {
                id: bubble
                anchors.right: entry.kind === "user" ? parent.right : undefined
                width: entry.compact ? parent.width : Math.min(parent.width * 0.85, body.implicitWidth + 24)
                implicitHeight: body.implicitHeight + (entry.compact ? 4 : 16)
                radius: 8
                color: entry.kind === "user" ? transcript.theme.userBubble : "transparent"

                Text {
                    id: body
                    anchors.fill: parent
                    anchors.margins: entry.compact ? 2 : 8
                    text: entry.text
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: entry.isError ? transcript.theme.danger
                         : entry.warning ? transcript.theme.warning
                         : entry.compact ? transcript.theme.muted : transcript.theme.text
                    font: entry.compact ? transcript.theme.monoFont : transcript.theme.bodyFont
                }
            }
        }
    }
}
