pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib

// The current session's transcript: plain text; tool calls and results as compact lines.
Item {
    id: transcript

    required property AppViews app
    required property Theme theme
    readonly property alias list: list
    property real maxContentWidth: 960

    Column {
        objectName: "emptyState"
        anchors.centerIn: parent
        width: Math.min(parent.width - 48, 520)
        spacing: 10
        visible: list.count === 0
        Text {
            width: parent.width
            text: !transcript.app.sessions.currentReachable
                  ? qsTr("The remote host cannot be reached.")
                  : qsTr("Describe a multi-step task below.")
            textFormat: Text.PlainText
            font.pixelSize: 18
            color: transcript.theme.text
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
        }
        Text {
            width: parent.width
            text: !transcript.app.sessions.currentReachable
                  ? qsTr("This session's transcript and checklist live on that host; they appear here as soon as it answers again.")
                  : transcript.app.sessions.currentRemote
                  ? qsTr("This session runs on a remote host: its agent, transcript and checklist are there, and shown here live.")
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

        // Follows the newest line unless the user scrolled up to read; then "Jump to the
        // latest" (or End) brings it back.
        property bool following: true

        function follow(): void {
            following = true
            positionViewAtEnd()
        }

        // queued, so it asks again whether to follow when it runs
        function keepAtEnd(): void {
            if (following)
                positionViewAtEnd()
        }

        function userMoved(): void {
            following = atYEnd || contentHeight <= height
        }

        anchors.top: parent.top
        anchors.bottom: parent.bottom
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.topMargin: 16
        anchors.bottomMargin: 16
        width: Math.min(parent.width - 32, transcript.maxContentWidth)
        clip: true
        spacing: 8
        model: transcript.app.transcript.rows
        activeFocusOnTab: true
        keyNavigationEnabled: false
        boundsBehavior: Flickable.StopAtBounds
        Accessible.role: Accessible.List
        Accessible.name: qsTr("Transcript")
        ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus }

        onCountChanged: {
            if (following)
                Qt.callLater(keepAtEnd)
            Qt.callLater(maybeLoadOlder)
        }
        onContentHeightChanged: if (following) Qt.callLater(keepAtEnd)
        onHeightChanged: if (following) Qt.callLater(keepAtEnd)
        onMovementEnded: userMoved()
        // older pages of a long transcript load as the user nears the top (one load at
        // a time: the Main role ignores a request while one is on its way)
        function maybeLoadOlder(): void {
            if (count > 0 && !following && contentY - originY < height
                    && transcript.app.transcript.hasMore)
                transcript.app.transcript.loadOlder()
        }
        onContentYChanged: maybeLoadOlder()

        // Return unfolds every folded line (thoughts, compaction summaries, long messages)
        // and folds them again: what a click does to one line, for the keyboard
        property bool unfoldAll: false
        Accessible.description: qsTr("Up, Down, PgUp, PgDn, Home and End scroll; Return unfolds every folded line")

        Connections {
            target: transcript.app.sessions
            function onCurrentIdChanged(): void { list.unfoldAll = false; list.follow() }
        }

        Keys.onPressed: (event) => {
            const page = Math.max(40, list.height - 40)
            if (event.matches(StandardKey.Copy)) {
                transcript.app.transcript.copy()
            } else if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
                list.unfoldAll = !list.unfoldAll
            } else if (event.key === Qt.Key_End) {
                list.follow()
            } else if (event.key === Qt.Key_Home) {
                list.positionViewAtBeginning()
                list.userMoved()
            } else if (event.key === Qt.Key_Up || event.key === Qt.Key_PageUp || event.key === Qt.Key_Down
                       || event.key === Qt.Key_PageDown) {
                const step = event.key === Qt.Key_Up ? -40 : event.key === Qt.Key_Down ? 40
                           : event.key === Qt.Key_PageUp ? -page : page
                const top = list.originY
                const bottom = Math.max(top, list.originY + list.contentHeight - list.height)
                list.contentY = Math.max(top, Math.min(bottom, list.contentY + step))
                list.userMoved()
            } else {
                return
            }
            event.accepted = true
        }

        header: Item {
            width: list.width
            height: transcript.app.transcript.hasMore ? 28 : 0
            Text {
                anchors.centerIn: parent
                visible: transcript.app.transcript.hasMore
                text: qsTr("Earlier messages load as you scroll up")
                color: transcript.theme.muted
                font.pixelSize: 12
            }
        }

        // the agent's message while it arrives (messages.delta); the stored message
        // takes its place in the rows
        footer: Item {
            width: list.width
            height: liveBody.visible ? liveBody.implicitHeight + 16 + list.spacing : 0
            TextEdit {
                id: liveBody
                objectName: "liveText"
                visible: text.length > 0
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.bottom: parent.bottom
                anchors.leftMargin: 8
                anchors.rightMargin: parent.width * 0.15
                anchors.bottomMargin: 8
                text: transcript.app.transcript.liveText
                textFormat: TextEdit.PlainText
                font.italic: transcript.app.transcript.liveThought
                readOnly: true
                selectByMouse: true
                activeFocusOnTab: false
                wrapMode: TextEdit.Wrap
                selectionColor: transcript.theme.selection
                selectedTextColor: transcript.theme.text
                color: transcript.app.transcript.liveThought ? transcript.theme.muted : transcript.theme.text
                font.pixelSize: transcript.app.transcript.liveThought ? 13 : 14
                Accessible.role: Accessible.StaticText
                Accessible.name: qsTr("Agent, still writing: ") + text
            }
        }

        // a focus ring while the transcript has keyboard focus
        Rectangle {
            parent: transcript
            anchors.fill: parent
            anchors.margins: 4
            visible: list.activeFocus
            color: "transparent"
            border.width: 2
            border.color: transcript.theme.accent
            radius: 6
        }

        delegate: Item {
            id: entry
            required property string kind
            required property string text
            required property string preview
            required property bool isError
            required property bool warning
            required property string detail
            required property string detailHtml
            required property string detailPreview
            required property int index
            required property bool markdown
            required property string richShort

            readonly property bool compact: kind === "tool_call" || kind === "tool_result" || kind === "todo"
                                            || kind === "turn_end" || kind === "summary" || thought
            // an agent's thought: kept, folded to its first line until clicked; a long
            // message: folded to its first lines until clicked
            readonly property bool thought: kind === "thought"
            // a compaction: its count on one line; unfolded, the summary the agent goes on from
            readonly property bool summary: kind === "summary" && text.indexOf("\n") >= 0
            readonly property bool long: preview.length > 0
            // a click turns this line over; Return in the transcript turns them all
            property bool turned: false
            readonly property bool unfolded: turned !== list.unfoldAll
            readonly property string firstLine: thought || summary ? text.split("\n", 1)[0] : ""
            width: list.width
            implicitHeight: bubble.implicitHeight + (detailBox.visible ? detailBox.implicitHeight + 4 : 0)

            Rectangle {
                id: bubble
                anchors.right: entry.kind === "user" ? parent.right : undefined
                // a long message fills the width anyway: not laid out unwrapped to find out
                width: entry.compact ? parent.width
                     : entry.long ? parent.width * 0.85 : Math.min(parent.width * 0.85, body.implicitWidth + 24)
                implicitHeight: body.implicitHeight + (entry.compact ? 4 : 16)
                radius: 8
                color: entry.kind === "user" ? transcript.theme.userBubble : "transparent"

                // read-only and selectable: drag to select, Ctrl+C copies
                TextEdit {
                    id: body
                    objectName: "transcriptText"
                    anchors.fill: parent
                    anchors.margins: entry.compact ? 2 : 8
                    text: entry.thought && !entry.unfolded
                          ? qsTr("Thought: %1%2").arg(entry.firstLine.length > 120 ? entry.firstLine.slice(0, 120) : entry.firstLine)
                                                 .arg(entry.firstLine.length > 120 || entry.text.indexOf("\n") >= 0 ? " … ▸" : " ▸")
                          : entry.summary && !entry.unfolded ? qsTr("%1 — the summary ▸").arg(entry.firstLine)
                          : entry.markdown ? (entry.long && entry.unfolded ? transcript.app.transcript.wholeRich(entry.index) : entry.richShort)
                          : entry.long && !entry.unfolded ? entry.preview : entry.text
                    // an agent's message: Markdown rendered by the window (nib_desktop.state.markdown)
                    textFormat: entry.markdown ? TextEdit.RichText : TextEdit.PlainText
                    // a link opens only on a click, and only http, https and mailto ones
                    onLinkActivated: (link) => transcript.app.transcript.openLink(link)
                    HoverHandler {
                        enabled: entry.markdown
                        cursorShape: body.hoveredLink.length > 0 ? Qt.PointingHandCursor : Qt.IBeamCursor
                    }
                    ToolTip.visible: body.hoveredLink.length > 0
                    ToolTip.text: body.hoveredLink
                    font.italic: entry.thought
                    readOnly: true
                    selectByMouse: true
                    activeFocusOnTab: false
                    wrapMode: TextEdit.Wrap
                    selectionColor: transcript.theme.selection
                    selectedTextColor: transcript.theme.text
                    color: entry.isError ? transcript.theme.danger
                         : entry.warning ? transcript.theme.warning
                         : entry.compact ? transcript.theme.muted : transcript.theme.text
                    font.pixelSize: entry.compact ? 13 : 14
                    Accessible.role: Accessible.StaticText
                    Accessible.name: (entry.kind === "user" ? qsTr("You: ") : entry.kind === "assistant" ? qsTr("Agent: ")
                                      : entry.thought ? qsTr("Agent's thought: ") : "")
                                     + (entry.long && !entry.unfolded ? entry.preview : entry.text)
                    TapHandler {
                        enabled: entry.thought || entry.summary || entry.long
                        onTapped: entry.turned = !entry.turned
                    }
                }
            }

            // what a tool call did: its diff (coloured) or its output, monospaced, folded
            // to its first lines until clicked (Return in the transcript unfolds all);
            // made only for the rows that have one
            Loader {
                id: detailBox
                active: entry.detailHtml.length > 0
                visible: active
                anchors.top: bubble.bottom
                anchors.topMargin: 4
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.leftMargin: 16
                sourceComponent: Rectangle {
                    implicitHeight: detailText.implicitHeight + 12
                    radius: 6
                    color: transcript.theme.userBubble
                    TextEdit {
                        id: detailText
                        objectName: "toolDetail"
                        anchors.fill: parent
                        anchors.margins: 6
                        text: entry.detailPreview.length > 0 && !entry.unfolded ? entry.detailPreview : entry.detailHtml
                        // made by the window from escaped text (nib_desktop.state.rich)
                        textFormat: TextEdit.RichText
                        font.family: "monospace"
                        font.pixelSize: 12
                        color: transcript.theme.text
                        readOnly: true
                        selectByMouse: true
                        activeFocusOnTab: false
                        wrapMode: TextEdit.WrapAnywhere
                        selectionColor: transcript.theme.selection
                        selectedTextColor: transcript.theme.text
                        Accessible.role: Accessible.StaticText
                        Accessible.name: entry.detail
                        TapHandler {
                            enabled: entry.detailPreview.length > 0
                            onTapped: entry.turned = !entry.turned
                        }
                    }
                }
            }
        }
    }

    NibButton {
        objectName: "jumpToLatest"
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.bottom: parent.bottom
        anchors.bottomMargin: 8
        visible: !list.following && list.count > 0
        text: qsTr("Jump to the latest ↓")
        ToolTip.visible: hovered
        ToolTip.text: qsTr("Follow the newest messages (End in the transcript)")
        onClicked: list.follow()
    }
}
