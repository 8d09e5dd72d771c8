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
    // made once a checklist is first shown (null before): the first frame makes none of it
    readonly property TodoDock dock: dockLoader.item as TodoDock
    // the composer's keys as this platform writes them, for the command palette
    readonly property var keys: ({ "toggle": toggleShortcut.nativeText, "history": historyShortcut.nativeText })

    implicitHeight: column.implicitHeight
    radius: 10
    color: theme.surface
    border.color: theme.divider
    clip: true

    // `text` before what the input holds, the cursor at the end, the focus in it
    function putInInput(text: string): void {
        input.text = input.text.trim() === "" ? text : text + "\n\n" + input.text
        input.cursorPosition = input.length
        input.forceActiveFocus()
    }
    function editQueued(): void { composer.putInInput(composer.app.composer.takeQueued()) }
    // text typed where it means nothing (the transcript, past its one-key commands) goes here
    function typeIn(text: string, modifiers: int): bool {
        if (text < " " || (modifiers & (Qt.ControlModifier | Qt.AltModifier | Qt.MetaModifier)))
            return false
        input.forceActiveFocus()
        input.insert(input.cursorPosition, text)
        return true
    }
    signal sent()  // a message went (or was queued): the transcript brings it into view
    function submit(): void {
        if (composer.app.composer.send(input.text)) {
            input.clear()
            composer.app.composer.saveDraft(composer.draftSession, "")
            composer.sent()
        }
    }

    // Drafts belong to their session: nothing typed for one is ever sent to another.
    property string draftSession: ""
    function showDraft(): void {  // the shown session's draft in the input (the view model decides)
        const text = composer.app.composer.swapDraft(composer.draftSession, composer.app.sessions.currentId, input.text)
        composer.draftSession = composer.app.sessions.currentId  // first: what is set below is its
        if (text !== input.text) {
            input.text = text
            input.cursorPosition = input.length
        }
    }
    Component.onCompleted: showDraft()
    Connections {
        target: composer.app.sessions
        function onCurrentIdChanged(): void { composer.showDraft() }
    }

    Shortcut {  // Ctrl+T toggles the dock without moving focus
        id: toggleShortcut
        sequence: "Ctrl+T"
        context: Qt.WindowShortcut
        onActivated: composer.app.dock.toggleExpanded()
    }

    // A waiting tool call is answered from anywhere in the window; focus goes back to
    // the input if the answer was given from the row's buttons.
    function answer(decision: string, optionId: string): void {
        const row = approvalLoader.item as FocusScope
        const fromRow = row !== null && row.activeFocus
        if (optionId === "")
            composer.app.approvals.respond(decision)
        else
            composer.app.approvals.pick(optionId)
        if (fromRow)
            input.forceActiveFocus()
    }
    ApprovalKeys {  // Alt+Y, Alt+S, Alt+A, Alt+N (ApprovalKeys.qml)
        id: approvalKeys
        onAnswered: decision => composer.answer(decision, "")
    }

    // Ctrl+H opens the dock's History view (focus goes into it) and closes it again.
    Shortcut {
        id: historyShortcut
        sequence: "Ctrl+H"
        context: Qt.WindowShortcut
        onActivated: composer.toggleHistory()
    }
    function toggleHistory(): void {
        if (composer.dock !== null)
            composer.dock.toggleHistory()
        else if (composer.app.history.open)
            composer.app.history.close()
        else if (!composer.app.dock.unavailable && composer.app.sessions.currentId !== "")
            composer.app.history.show()  // the dock is made as it shows, the focus in the list
    }

    ColumnLayout {
        id: column
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 0

        Loader {
            id: dockLoader
            Layout.fillWidth: true
            active: composer.app.dock.made
            // as the dock shows itself (its `visible`, read here, would be the Loader's own)
            visible: composer.dock !== null && composer.app.dock.shown
            sourceComponent: TodoDock {
                objectName: "todoDock"
                model: composer.app.dock
                history: composer.app.history
                app: composer.app
                theme: composer.theme
                maxListHeight: composer.maxDockListHeight
                toggleKeys: toggleShortcut.nativeText
                historyKeys: historyShortcut.nativeText
                onFinished: input.forceActiveFocus()
            }
        }

        Rectangle {
            Layout.fillWidth: true
            Layout.preferredHeight: dockLoader.visible ? 1 : 0
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
            sourceComponent: ApprovalRow {
                approvals: composer.app.approvals
                theme: composer.theme
                allowOnceKeys: approvalKeys.allowOnce
                allowSessionKeys: approvalKeys.allowSession
                allowAlwaysKeys: approvalKeys.allowAlways
                denyKeys: approvalKeys.deny
                onAnswered: decision => composer.answer(decision, "")
                onPicked: optionId => composer.answer("", optionId)
            }
        }

        Rectangle {
            Layout.fillWidth: true
            Layout.preferredHeight: approvalLoader.active ? 1 : 0
            color: composer.theme.divider
        }

        // A message sent while the turn runs (QueuedRow.qml); what an agent waits for.
        // Each made only while it shows, as the images held below: none for the first frame.
        Loader {
            Layout.fillWidth: true
            Layout.leftMargin: 12
            Layout.rightMargin: 8
            active: composer.app.composer.queuedText !== ""
            visible: active
            sourceComponent: QueuedRow {
                composer: composer.app.composer
                theme: composer.theme
                onEditRequested: composer.editQueued()
            }
        }
        Loader {
            Layout.fillWidth: true
            Layout.margins: 8
            active: composer.app.agentAsks.asksCount > 0
            visible: active
            sourceComponent: AgentAsksRow { composer: composer.app.agentAsks; theme: composer.theme }
        }
        Connections { target: composer.app.composer; function onWordsAsked(words: string): void { composer.putInInput(words) } }
        Connections { target: composer.app.editing; function onTaken(words: string): void { composer.putInInput(words) } }
        Connections { target: composer.app.agentAsks; function onWordsAsked(words: string): void { composer.putInInput(words) } }

        // "/" typed: the commands it may begin (SlashCompletions.qml); Return sends what
        // is typed
        SlashCompletions {
            id: completion
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            Layout.topMargin: 4
            composer: composer.app.composer
            theme: composer.theme
            input: input
        }
        Loader {
            Layout.fillWidth: true
            Layout.margins: 8
            active: composer.app.composer.imagesHeld
            visible: active
            sourceComponent: HeldImages { composer: composer.app.composer; theme: composer.theme }
        }
        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(Math.max(input.implicitHeight, 44), 160)
            TextArea {
                id: input
                objectName: "composerInput"
                onTextChanged: composer.app.composer.saveDraft(composer.draftSession, text)  // kept as typed
                focus: true
                wrapMode: TextEdit.Wrap
                textFormat: TextEdit.PlainText
                placeholderText: !composer.app.sessions.currentReachable
                    ? qsTr("The remote host cannot be reached now; it is tried every second (Ctrl+R: now).")
                    : composer.app.sessions.currentRunning
                    ? qsTr("A turn runs — Enter queues a message for when it completes, Esc stops it")
                    : composer.app.sessions.currentRemote
                    ? qsTr("Describe a task — it runs on the remote host")
                    : composer.app.dock.canContinue
                    ? qsTr("Ctrl+Enter continues the unfinished checklist, or describe a new task")
                    : composer.app.composer.attachable
                    ? qsTr("Describe a task — @ attaches a file of the folder, / lists %1").arg(composer.app.composer.agentCommands ? qsTr("the agent's commands") : qsTr("commands (the agent's once it has started)"))
                    : qsTr("Describe a task — Enter sends, Shift+Enter adds a line, /compact summarises")
                color: composer.theme.text
                placeholderTextColor: composer.theme.muted
                background: null
                Keys.onReturnPressed: (event) => {
                    if (completion.visible && completion.mentioning) {
                        completion.complete()  // the file chosen, not the message sent
                        event.accepted = true
                    } else if (event.modifiers & Qt.ShiftModifier) {
                        event.accepted = false
                    } else if ((event.modifiers & Qt.ControlModifier) && input.text.trim() === "") {
                        composer.app.dock.continueTurn()  // Ctrl+Enter: carry the unfinished list on
                        event.accepted = true
                    } else {
                        composer.submit()
                        event.accepted = true
                    }
                }
                Keys.onEnterPressed: (event) => { composer.submit(); event.accepted = true }
                // an image on the clipboard goes with the message (or is refused in words)
                Keys.onPressed: (event) => event.accepted = event.matches(StandardKey.Paste)
                                           && composer.app.composer.pasteImage()
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
                // Escape stops the running turn; else gives up editing an earlier message,
                // or dismisses the notice
                Keys.onEscapePressed: (event) => { event.accepted = composer.app.composer.escape() }
                Accessible.name: qsTr("Message")
                Accessible.description: placeholderText
            }
        }

        ComposerFooter {
            Layout.fillWidth: true
            Layout.margins: 8
            app: composer.app
            theme: composer.theme
            toolsKeys: composer.toolsKeys
            canSend: input.text.trim().length > 0
            onSendRequested: composer.submit()
        }
    }
}
