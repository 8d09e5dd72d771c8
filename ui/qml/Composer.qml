pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The Composer: the TodoDock above a multi-line input, the session's mode, Send and Stop.
Rectangle {
    id: composer

    required property AppViews app
    required property Theme theme
    required property real maxDockListHeight
    property string toolsKeys: ""  // the Tools view's shortcut, as this platform writes it
    readonly property alias input: input
    readonly property alias dock: dock
    // the composer's keys as this platform writes them, for the command palette
    readonly property var keys: ({
        "toggle": toggleShortcut.nativeText,
        "history": historyShortcut.nativeText
    })

    implicitHeight: column.implicitHeight
    radius: 10
    color: theme.surface
    border.color: theme.divider
    clip: true

    function editQueued(): void {
        const text = composer.app.composer.takeQueued()
        input.text = input.text.trim() === "" ? text : text + "\n\n" + input.text
        input.cursorPosition = input.length
        input.forceActiveFocus()
    }

    function submit(): void {
        if (composer.app.composer.send(input.text)) {
            input.clear()
            composer.app.composer.saveDraft(composer.draftSession, "")
        }
    }

    // Drafts belong to their session: switching keeps this one's text and shows the next
    // one's, so nothing typed for one session is ever sent to another.
    property string draftSession: ""
    Connections {
        target: composer.app.sessions
        function onCurrentIdChanged(): void {
            const shown = composer.app.sessions.currentId
            if (shown === composer.draftSession)
                return
            // text typed while no session existed stays for the first one
            if (composer.draftSession !== "") {
                composer.app.composer.saveDraft(composer.draftSession, input.text)
                input.text = composer.app.composer.draft(shown)
                input.cursorPosition = input.length
            }
            composer.draftSession = shown
        }
    }

    // Ctrl+T toggles the dock without moving focus.
    Shortcut {
        id: toggleShortcut
        sequence: "Ctrl+T"
        context: Qt.WindowShortcut
        onActivated: composer.app.dock.toggleExpanded()
    }

    // A waiting tool call is answered from anywhere in the window; focus goes back to
    // the input if the answer was given from the row's buttons.
    function answer(decision: string): void {
        const row = approvalLoader.item as FocusScope
        const fromRow = row !== null && row.activeFocus
        composer.app.approvals.respond(decision)
        if (fromRow)
            input.forceActiveFocus()
    }
    Shortcut {
        id: allowOnceShortcut
        sequence: "Alt+Y"
        context: Qt.WindowShortcut  // always taken: never typed into the input
        onActivated: composer.answer("allow_once")
    }
    Shortcut {
        id: allowSessionShortcut
        sequence: "Alt+S"
        context: Qt.WindowShortcut  // always taken: never typed into the input
        onActivated: composer.answer("allow_session")
    }
    Shortcut {
        id: denyShortcut
        sequence: "Alt+N"
        context: Qt.WindowShortcut  // always taken: never typed into the input
        onActivated: composer.answer("deny")
    }

    // Ctrl+H opens the dock's History view (focus goes into it) and closes it again.
    Shortcut {
        id: historyShortcut
        sequence: "Ctrl+H"
        context: Qt.WindowShortcut
        onActivated: dock.toggleHistory()
    }

    ColumnLayout {
        id: column
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 0

        TodoDock {
            id: dock
            objectName: "todoDock"
            Layout.fillWidth: true
            model: composer.app.dock
            history: composer.app.history
            app: composer.app
            theme: composer.theme
            maxListHeight: composer.maxDockListHeight
            toggleKeys: toggleShortcut.nativeText
            historyKeys: historyShortcut.nativeText
            onFinished: input.forceActiveFocus()
        }

        Rectangle {
            Layout.fillWidth: true
            Layout.preferredHeight: dock.visible ? 1 : 0
            color: composer.theme.divider
        }

        // A tool call waiting for the user: never takes the focus from the input; its
        // keys work from anywhere in the window, and Shift+Tab from the input reaches it.
        // Built only while a call waits: nothing of it is made before the first frame.
        Loader {
            id: approvalLoader
            Layout.fillWidth: true
            active: composer.app.approvals.approvalId !== ""
            visible: active
            sourceComponent: FocusScope {
                id: approvalRow
                objectName: "approvalRow"
                implicitHeight: approvalColumn.implicitHeight + 16
                Accessible.role: Accessible.Grouping
                Accessible.name: qsTr("Approval: %1").arg(composer.app.approvals.tool)

                Rectangle {
                    anchors.fill: parent
                    color: composer.theme.selection
                }
                ColumnLayout {
                    id: approvalColumn
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.top: parent.top
                    anchors.margins: 8
                    spacing: 4
                    Text {
                        objectName: "approvalTitle"
                        Layout.fillWidth: true
                        text: qsTr("Allow %1 to run?").arg(composer.app.approvals.tool)
                        textFormat: Text.PlainText
                        font.bold: true
                        wrapMode: Text.Wrap
                        color: composer.theme.text
                    }
                    Text {
                        objectName: "approvalArguments"
                        Layout.fillWidth: true
                        text: composer.app.approvals.arguments
                        textFormat: Text.PlainText
                        font.family: "monospace"
                        font.pixelSize: 12
                        wrapMode: Text.WrapAnywhere
                        maximumLineCount: 6
                        elide: Text.ElideRight
                        FullTextTip { target: parent }
                        color: composer.theme.text
                        Accessible.role: Accessible.StaticText
                        Accessible.name: qsTr("Arguments: %1").arg(text)
                    }
                    RowLayout {
                        spacing: 6
                        NibButton {
                            objectName: "allowOnceButton"
                            text: qsTr("Allow once")
                            primary: true
                            palette.buttonText: composer.theme.text
                            activeFocusOnTab: true
                            ToolTip.visible: hovered || activeFocus
                            ToolTip.text: qsTr("Allow this call (%1)").arg(allowOnceShortcut.nativeText)
                            Accessible.name: qsTr("Allow once")
                            Accessible.description: ToolTip.text
                            onClicked: composer.answer("allow_once")
                        }
                        NibButton {
                            objectName: "allowSessionButton"
                            text: qsTr("Allow for this session")
                            activeFocusOnTab: true
                            ToolTip.visible: hovered || activeFocus
                            ToolTip.text: qsTr("Allow this tool until the host stops (%1)").arg(allowSessionShortcut.nativeText)
                            Accessible.name: qsTr("Allow for this session")
                            Accessible.description: ToolTip.text
                            onClicked: composer.answer("allow_session")
                        }
                        NibButton {
                            objectName: "denyButton"
                            text: qsTr("Deny")
                            activeFocusOnTab: true
                            ToolTip.visible: hovered || activeFocus
                            ToolTip.text: qsTr("Refuse this call; the agent is told (%1)").arg(denyShortcut.nativeText)
                            Accessible.name: qsTr("Deny")
                            Accessible.description: ToolTip.text
                            onClicked: composer.answer("deny")
                        }
                        Label {
                            Layout.fillWidth: true
                            text: qsTr("%1 allow · %2 for the session · %3 deny").arg(allowOnceShortcut.nativeText)
                                  .arg(allowSessionShortcut.nativeText).arg(denyShortcut.nativeText)
                            elide: Text.ElideRight
                            FullTextTip { target: parent }
                            color: composer.theme.muted
                            font.pixelSize: 11
                        }
                    }
                }
            }
        }

        Rectangle {
            Layout.fillWidth: true
            Layout.preferredHeight: approvalLoader.active ? 1 : 0
            color: composer.theme.divider
        }

        // A message sent while the turn runs: shown, editable, cancellable; it goes when
        // the turn completes (after a stop or a failure it waits for Send now)
        RowLayout {
            objectName: "queuedRow"
            Layout.fillWidth: true
            Layout.leftMargin: 12
            Layout.rightMargin: 8
            visible: composer.app.composer.queuedText !== ""
            spacing: 6
            Label {
                objectName: "queuedText"
                Layout.fillWidth: true
                text: (composer.app.composer.queuedHeld
                       ? qsTr("Queued — the turn did not complete: ") : qsTr("Queued, sent when this turn completes: "))
                      + composer.app.composer.queuedText
                textFormat: Text.PlainText
                elide: Text.ElideRight
                FullTextTip { target: parent }
                maximumLineCount: 1
                color: composer.theme.muted
                font.pixelSize: 12
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            NibToolButton {
                objectName: "sendQueuedButton"
                visible: composer.app.composer.queuedHeld
                text: qsTr("Send now")
                font.pixelSize: 12
                onClicked: composer.app.composer.sendQueued()
            }
            NibToolButton {
                objectName: "editQueuedButton"
                text: qsTr("Edit")
                font.pixelSize: 12
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Back into the input (Up in the empty input)")
                onClicked: composer.editQueued()
            }
            NibToolButton {
                objectName: "cancelQueuedButton"
                text: qsTr("Cancel")
                font.pixelSize: 12
                onClicked: composer.app.composer.cancelQueued()
            }
        }

        // "/" typed: the commands it may begin, with what each does. Up and Down choose,
        // Tab completes; Return sends what is typed.
        ColumnLayout {
            id: completion
            objectName: "slashCompletions"
            property var matches: input.text.startsWith("/") ? composer.app.composer.completions(input.text) : []
            property int chosen: 0
            onMatchesChanged: completion.chosen = 0
            function complete(): void {
                const match = completion.matches[Math.min(completion.chosen, completion.matches.length - 1)]
                input.text = match.name
                input.cursorPosition = input.length
            }
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            Layout.topMargin: 4
            visible: completion.matches.length > 0 && input.activeFocus
            spacing: 0
            Repeater {
                model: completion.matches
                delegate: Rectangle {
                    id: choice
                    required property var modelData
                    required property int index
                    objectName: "slashCompletion"
                    readonly property bool chosen: choice.index === completion.chosen
                    Layout.fillWidth: true
                    implicitHeight: 24
                    radius: 4
                    color: chosen ? composer.theme.accent : "transparent"
                    Accessible.role: Accessible.ListItem
                    Accessible.name: choice.modelData.name + ", " + choice.modelData.what
                    RowLayout {
                        anchors.fill: parent
                        anchors.leftMargin: 6
                        anchors.rightMargin: 6
                        spacing: 10
                        Text {
                            text: choice.modelData.name
                            textFormat: Text.PlainText
                            font.bold: true
                            color: choice.chosen ? composer.theme.accentText : composer.theme.text
                        }
                        Text {
                            Layout.fillWidth: true
                            text: choice.modelData.what + (choice.chosen ? qsTr("  (Tab)") : "")
                            textFormat: Text.PlainText
                            elide: Text.ElideRight
                            color: choice.chosen ? composer.theme.accentText : composer.theme.muted
                        }
                    }
                    TapHandler {
                        onTapped: { completion.chosen = choice.index; completion.complete(); input.forceActiveFocus() }
                    }
                }
            }
        }

        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(Math.max(input.implicitHeight, 44), 160)
            TextArea {
                id: input
                objectName: "composerInput"
                focus: true
                wrapMode: TextEdit.Wrap
                textFormat: TextEdit.PlainText
                placeholderText: !composer.app.sessions.currentReachable
                    ? qsTr("The remote host cannot be reached now; it is tried every second (Ctrl+R: now).")
                    : composer.app.sessions.currentRunning
                    ? qsTr("A turn runs — Enter queues a message for when it completes, Esc stops it")
                    : composer.app.sessions.currentRemote
                    ? qsTr("Describe a task — it runs on the remote host")
                    : dock.model.canContinue
                    ? qsTr("Ctrl+Enter continues the unfinished checklist, or describe a new task")
                    : qsTr("Describe a task — Enter sends, Shift+Enter adds a line, /compact summarises")
                color: composer.theme.text
                placeholderTextColor: composer.theme.muted
                background: null
                Keys.onReturnPressed: (event) => {
                    if (event.modifiers & Qt.ShiftModifier) {
                        event.accepted = false
                    } else if ((event.modifiers & Qt.ControlModifier) && input.text.trim() === "") {
                        dock.model.continueTurn()  // Ctrl+Enter: carry the unfinished list on
                        event.accepted = true
                    } else {
                        composer.submit()
                        event.accepted = true
                    }
                }
                Keys.onEnterPressed: (event) => { composer.submit(); event.accepted = true }
                // Up in the empty input takes the queued message back to edit it; with
                // commands offered, Up and Down choose one
                Keys.onUpPressed: (event) => {
                    if (completion.visible) {
                        completion.chosen = Math.max(0, completion.chosen - 1)
                        event.accepted = true
                        return
                    }
                    event.accepted = input.text === "" && composer.app.composer.queuedText !== ""
                    if (event.accepted)
                        composer.editQueued()
                }
                Keys.onDownPressed: (event) => {
                    event.accepted = completion.visible
                    if (event.accepted)
                        completion.chosen = Math.min(completion.matches.length - 1, completion.chosen + 1)
                }
                // Tab completes a command being typed; otherwise it leaves the input (a tab
                // character is rarely what a task needs)
                Keys.onTabPressed: (event) => {
                    if (completion.visible && input.text !== completion.matches[completion.chosen].name)
                        completion.complete()
                    else
                        input.nextItemInFocusChain(true).forceActiveFocus(Qt.TabFocusReason)
                    event.accepted = true
                }
                Keys.onBacktabPressed: (event) => {
                    input.nextItemInFocusChain(false).forceActiveFocus(Qt.BacktabFocusReason)
                    event.accepted = true
                }
                // Escape stops the running turn
                Keys.onEscapePressed: (event) => {
                    // stops the running turn; with none running, dismisses the notice
                    if (composer.app.sessions.currentRunning) {
                        composer.app.composer.stop()
                        event.accepted = true
                    } else if (composer.app.notice.text !== "") {
                        composer.app.notice.dismiss()
                        event.accepted = true
                    } else {
                        event.accepted = false
                    }
                }
                Accessible.name: qsTr("Message")
                Accessible.description: placeholderText
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.margins: 8
            spacing: 8
            Label {
                objectName: "sessionKind"
                // an external agent's session names the agent and its folder
                text: composer.app.sessions.currentAgent !== ""
                      ? qsTr("%1 · %2").arg(composer.app.sessions.currentAgent).arg(composer.app.sessions.currentFolder)
                      : qsTr("Mode: %1").arg(composer.app.sessions.currentMode)
                textFormat: Text.PlainText
                elide: Text.ElideMiddle
                FullTextTip { target: parent }
                Layout.maximumWidth: 320
                color: composer.theme.muted
                font.pixelSize: 12
                Accessible.role: Accessible.StaticText
                Accessible.name: composer.app.sessions.currentAgent !== ""
                                 ? qsTr("Agent %1, in %2").arg(composer.app.sessions.currentAgent).arg(composer.app.sessions.currentFolder)
                                 : text
            }
            Label {
                objectName: "remoteNote"
                Layout.fillWidth: true
                visible: composer.app.sessions.currentRemote
                text: composer.app.sessions.currentRemoteNote
                textFormat: Text.PlainText
                elide: Text.ElideRight
                FullTextTip { target: parent }
                color: composer.app.sessions.currentReachable ? composer.theme.muted : composer.theme.danger
                font.pixelSize: 12
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            Label {
                objectName: "approvalsElsewhere"
                visible: composer.app.approvals.elsewhere > 0
                Layout.fillWidth: true
                text: composer.app.approvals.elsewhereText
                textFormat: Text.PlainText
                elide: Text.ElideMiddle
                FullTextTip { target: parent }
                color: composer.theme.warning
                font.pixelSize: 12
                font.underline: elsewhereArea.containsMouse
                Accessible.role: Accessible.Link
                Accessible.name: text
                ToolTip.visible: elsewhereArea.containsMouse && truncated
                ToolTip.text: text
                MouseArea {
                    id: elsewhereArea
                    anchors.fill: parent
                    hoverEnabled: true
                    cursorShape: Qt.PointingHandCursor
                    onClicked: composer.app.approvals.goToWaiting()
                }
            }
            Label {
                objectName: "toolsFailed"
                visible: composer.app.tools.failed > 0
                text: (composer.app.tools.failed === 1 ? qsTr("A tool server failed")
                       : qsTr("%1 tool servers failed").arg(composer.app.tools.failed))
                      + " · " + composer.toolsKeys
                color: composer.theme.danger
                font.pixelSize: 12
                Accessible.role: Accessible.StaticText
                Accessible.name: text
            }
            Item { Layout.fillWidth: !composer.app.sessions.currentRemote }
            NibButton {
                objectName: "stopButton"
                text: qsTr("Stop")
                visible: composer.app.sessions.currentRunning
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Stop the turn (Esc)")
                Accessible.name: qsTr("Stop the turn")
                onClicked: composer.app.composer.stop()
            }
            NibButton {
                objectName: "sendButton"
                text: qsTr("Send")
                // disabled: muted text and no accent fill (Fusion keeps the enabled colour)
                palette.buttonText: enabled ? composer.theme.text : composer.theme.disabledText
                primary: true
                enabled: input.text.trim().length > 0 && composer.app.sessions.currentReachable
                ToolTip.visible: hovered
                ToolTip.text: composer.app.sessions.currentRunning ? qsTr("Queue it for when this turn completes (Enter)")
                                                                  : qsTr("Send (Enter)")
                Accessible.name: qsTr("Send")
                onClicked: composer.submit()
            }
        }
    }
}
