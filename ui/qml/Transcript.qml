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

    // Ctrl+F: find in the transcript (from anywhere); closing it gives the focus back
    property Item findReturn: null
    Shortcut {
        sequences: [StandardKey.Find]
        context: Qt.WindowShortcut
        onActivated: {
            if (!transcript.finding)
                transcript.findReturn = transcript.Window.activeFocusItem
            transcript.findBar().open()
        }
    }
    readonly property bool finding: findLoader.item !== null && (findLoader.item as Item).visible
    function findBar(): FindBar {
        findLoader.active = true
        return findLoader.item as FindBar
    }
    Loader {  // the find bar: made on the first Ctrl+F (or a search hit opened here), and kept
        id: findLoader
        anchors.top: parent.top
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.topMargin: 6
        width: list.width
        z: 2
        active: false
        sourceComponent: FindBar {
            view: transcript.app.transcript
            theme: transcript.theme
            onClosed: if (transcript.findReturn !== null) transcript.findReturn.forceActiveFocus()
        }
    }
    Connections {  // a search hit opened: its word found here, at its message
        target: transcript.app.library
        function onOpened(word: string, sid: string, seq: int): void { transcript.findBar().show(word); transcript.app.transcript.findAt(word, sid, seq) }
    }
    Connections {
        target: transcript.app.transcript
        function onFindEnded(): void { if (findLoader.item !== null) (findLoader.item as Item).visible = false }
        function onFindMoved(): void { list.showMatch(true) }  // the user went to a match
        function onFindChanged(): void { if (!list.following) list.showMatch(false) }  // found again: kept in view while reading, never while following
    }

    ListView {
        id: list
        objectName: "transcriptList"

        // Follows the newest line unless the user scrolled up to read; then "Jump to the
        // latest" (or End) brings it back.
        property bool following: true

        function showMatch(asked: bool): void {
            const row = transcript.app.transcript.findRow
            if (row >= 0) {
                following = following && !asked
                positionViewAtIndex(row, ListView.Contain)
            }
        }
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

        anchors.top: transcript.finding ? findLoader.bottom : parent.top
        anchors.bottom: parent.bottom
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.topMargin: transcript.finding ? 6 : 16
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

        // the row at the view's bottom edge (or just above it, between two rows)
        // the line at `row` shows only its folded form: C copies only what is shown
        function foldedAt(row: int): bool {
            const line = list.itemAtIndex(row) as TranscriptEntry
            return line !== null && line.long && !line.unfolded
        }
        function lastInView(): int {
            for (let y = contentY + height - 2; y > contentY; y -= 8) {
                const at = indexAt(contentX + 1, y)
                if (at >= 0)
                    return at
            }
            return count - 1
        }

        // Return unfolds (and folds again) every folded line, as a click does one line
        property bool unfoldAll: false
        Accessible.description: qsTr("Up, Down, PgUp, PgDn, Home and End scroll; Return unfolds every folded line; C copies the last code block in view, M the last line, O opens the last file or place in view, S selects in the last line by keyboard, E edits and resends your last message in view, Ctrl+C the transcript")

        Connections {
            target: transcript.app.sessions
            function onCurrentIdChanged(): void { list.unfoldAll = false; list.follow() }
        }

        Keys.onPressed: (event) => {
            const page = Math.max(40, list.height - 40)
            if (event.matches(StandardKey.Copy)) {
                transcript.app.transcript.copy()
            } else if (event.modifiers === Qt.NoModifier
                       && transcript.app.transcript.key(event.text, list.lastInView(), list.foldedAt(list.lastInView()))) {
                // C, M and O: done on the last line in view
            } else if (event.key === Qt.Key_E && event.modifiers === Qt.NoModifier) {
                transcript.app.editing.take(list.lastInView())
            } else if (event.key === Qt.Key_S && event.modifiers === Qt.NoModifier) {
                const line = list.itemAtIndex(list.lastInView()) as TranscriptEntry
                if (line !== null)
                    line.selectByKeys()
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
                // set whole when it begins anew, appended to as it grows (only its end
                // is laid out again)
                textFormat: TextEdit.PlainText
                Component.onCompleted: text = transcript.app.transcript.liveText
                Connections {
                    target: transcript.app.transcript
                    function onLiveChanged(): void { liveBody.text = transcript.app.transcript.liveText }
                    function onLiveAppended(added: string): void { liveBody.insert(liveBody.length, added) }
                }
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

        delegate: TranscriptEntry {
            width: list.width
            view: transcript.app.transcript
            theme: transcript.theme
            unfoldAll: list.unfoldAll
            // a line unfolded or folded by the user stays where it is (its top), read
            onTurnedChanged: list.following = false
        }
    }

    NibButton {
        objectName: "jumpToLatest"
        anchors.horizontalCenter: parent.horizontalCenter
        anchors.bottom: parent.bottom
        anchors.bottomMargin: 8
        visible: !list.following && list.count > 0 && list.contentHeight > list.height  // all of it shown: nowhere to jump
        text: qsTr("Jump to the latest ↓")
        ToolTip.visible: hovered
        ToolTip.text: qsTr("Follow the newest messages (End in the transcript)")
        onClicked: list.follow()
    }

    // what went to the clipboard, said for a moment
    CopiedNote {
        anchors.top: parent.top
        anchors.right: parent.right
        anchors.margins: 12
        view: transcript.app.transcript
        theme: transcript.theme
    }
}
