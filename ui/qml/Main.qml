pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import QtQuick.Templates as T
import Nib

ApplicationWindow {
    id: window

    required property AppViews app
    readonly property alias composer: composer
    readonly property alias sidebar: sidebar
    readonly property alias transcript: transcript

    // Where the user types: at launch, after a session is switched or created, after a
    // dialog closes.
    function focusInput(): void {
        composer.input.forceActiveFocus()
    }

    // F6 cycles focus between the three regions (Shift+F6 backwards).
    function cycleFocus(step: int): void {
        // the dock's list is a stop while it is open: arrows, PgUp/PgDn, Home and End
        // scroll it there
        const dockList = composer.dock !== null && composer.dock.list.visible ? [composer.dock.list] : []
        const regions = (window.sidebarCollapsed ? [] : [sidebar.list])
            .concat([transcript.list], dockList, [composer.input])
        let here = regions.findIndex((item) => item.activeFocus)
        if (here < 0)
            here = regions.length - 1
        regions[(here + step + regions.length) % regions.length].forceActiveFocus()
    }
    Component.onCompleted: focusInput()

    // Each dialog is loaded from its file on first use: neither it nor the Controls types
    // it uses are loaded or compiled for the first frame (an inline Component would be).
    // Each gives the focus back to the input when it closes.
    function openDialog(loader: Loader, file: string): void {
        if (loader.item === null) {
            const made = { app: window.app, theme: theme }
            if (file === "AgentDialog.qml")
                made.agent = window.agentAsked
            loader.setSource(Qt.resolvedUrl("dialogs/" + file), made)
            const dialog = loader.item as T.Dialog
            dialog.closed.connect(window.focusInput)
        }
        (loader.item as T.Dialog).open()
    }

    function confirmDelete(): void {
        if (window.app.sessions.currentId !== "")
            window.openDialog(deleteDialogLoader, "DeleteDialog.qml")
    }

    Loader { id: closeDialogLoader }
    Connections {
        target: closeDialogLoader.item as T.Dialog
        function onAccepted(): void { window.closeConfirmed = true; window.close() }
    }
    Loader { id: deleteDialogLoader }
    Loader { id: toolsDialogLoader }
    Loader { id: changesDialogLoader }
    // the Changes view, on the step `step` when given (a dock row's "3 files" asks too)
    function openChanges(step: string, revision: int): void {
        window.app.changes.open(step, revision)
        window.openDialog(changesDialogLoader, "ChangesDialog.qml")
    }
    Connections { target: window.app.changes; function onAsked(step: string, revision: int): void { window.openChanges(step, revision) } }
    Connections { target: window.app.history; function onFilesAsked(revision: int): void { window.openChanges("", revision) } }
    Connections { target: window.app.editing; function onChangesAsked(): void { window.openDialog(changesDialogLoader, "ChangesDialog.qml") } }
    Loader { id: settingsDialogLoader }
    Loader { id: renameDialogLoader }
    Loader { id: searchDialogLoader }
    Loader { id: exportDialogLoader }
    Loader { id: mergeDialogLoader }
    Loader { id: earlierDialogLoader }
    Loader { id: attemptDialogLoader }
    Loader { id: runsDialogLoader }
    Loader { id: formDialogLoader }  // a form or URL an agent asks the user for, opened as it comes
    Connections { target: window.app.form; function onChanged(): void { if (window.app.form.waiting) window.openDialog(formDialogLoader, "FormDialog.qml") } }
    Connections {
        target: window.app.attempt
        function onChangesAsked(): void { window.openDialog(changesDialogLoader, "ChangesDialog.qml") }
        function onKeepAsked(): void { window.openDialog(mergeDialogLoader, "MergeDialog.qml") }
    }
    function openLibrary(file: string): void {
        window.openDialog(file === "RenameDialog.qml" ? renameDialogLoader
                          : file === "SearchDialog.qml" ? searchDialogLoader
                          : file === "MergeDialog.qml" ? mergeDialogLoader
                          : file === "EarlierDialog.qml" ? earlierDialogLoader
                          : file === "AttemptDialog.qml" ? attemptDialogLoader
                          : file === "RunsDialog.qml" ? runsDialogLoader : exportDialogLoader, file)
    }
    Loader { id: agentDialogLoader }
    // the agent a new session is asked on (the agent dialog shows it)
    property string agentAsked: ""
    Binding {
        target: agentDialogLoader.item
        property: "agent"
        value: window.agentAsked
        when: agentDialogLoader.item !== null
    }
    function newAgentSession(agent: string): void {
        window.agentAsked = agent
        window.openDialog(agentDialogLoader, "AgentDialog.qml")
    }
    WindowPalette {
        id: windowPalette
        app: window.app
        theme: theme
        keys: Object.assign({}, window.keys, composer.keys)
        sidebarCollapsed: window.sidebarCollapsed
        onClosed: window.focusInput()
        onDialogRequested: (file) => window.openDialog(file === "RemoteDialog.qml" ? remoteDialogLoader
            : file === "ToolsDialog.qml" ? toolsDialogLoader : settingsDialogLoader, file)
        onAgentRequested: (agent) => window.newAgentSession(agent)
        onDeleteRequested: window.confirmDelete()
        onLibraryRequested: (file) => window.openLibrary(file)
        onChangesRequested: window.openChanges("", 0)
        onHistoryRequested: composer.toggleHistory()
        onFeedbackRequested: if (composer.dock !== null) composer.dock.giveFeedback()
        onSidebarToggled: window.toggleSidebar()
        onQuitRequested: window.close()
    }

    Loader { id: remoteDialogLoader }

    // Closing while turns run asks first: closing stops them (the host ends with the app).
    property bool closeConfirmed: false
    onClosing: (close) => {
        if (app.sessions.runningCount > 0 && !closeConfirmed) {
            close.accepted = false
            window.openDialog(closeDialogLoader, "CloseDialog.qml")
        }
    }

    width: 1100
    height: 760
    minimumWidth: 640
    minimumHeight: 420
    visible: true
    title: app.sessions.windowTitle
    color: theme.window

    // The controls (buttons, fields, menus, dialogs) take their colours from the theme
    // (Theme.qml: `controls`), so every text and state meets the contrast it is checked for.
    palette: theme.controls

    Theme { id: theme; objectName: "theme"; appearance: window.app.settings.appearance }

    // Ctrl+B hides the sessions list (more room for the transcript) and shows it again
    property bool sidebarCollapsed: false
    function toggleSidebar(): void {
        window.sidebarCollapsed = !window.sidebarCollapsed
        if (window.sidebarCollapsed)
            window.focusInput()
    }
    WindowKeys {
        id: windowKeys
        sessions: window.app.sessions
        connection: window.app.connection
        attempt: window.app.attempt
        onSidebarToggled: window.toggleSidebar()
        onQuitRequested: window.close()
        onNewMenuRequested: sidebar.openNewMenu()
        onDeleteRequested: window.confirmDelete()
        onToolsRequested: window.openDialog(toolsDialogLoader, "ToolsDialog.qml")
        onChangesRequested: window.openChanges("", 0)
        onSettingsRequested: window.openDialog(settingsDialogLoader, "SettingsDialog.qml")
        onLibraryRequested: file => window.openLibrary(file)
        onFocusCycled: step => window.cycleFocus(step)
    }
    readonly property var keys: windowKeys.texts

    // Completed steps and turn ends, said politely to assistive technology; a tool call
    // waiting for approval, assertively.
    Item {
        id: announcer
        Accessible.role: Accessible.StatusBar
        Accessible.name: qsTr("Checklist progress")
        Connections {
            target: window.app.dock
            function onAnnouncement(text: string): void {
                announcer.Accessible.announce(text)
            }
        }
        Connections {
            target: window.app.approvals
            function onAnnounced(text: string): void {
                announcer.Accessible.announce(text, Accessible.Assertive)
            }
        }
        Connections { target: window.app.announcer; function onSaid(text: string): void { announcer.Accessible.announce(text) } }  // a turn's end
    }

    // A session switched or created by anything but the sidebar's own arrow keys: the
    // input gets focus (the user is about to type there).
    Connections {
        target: window.app.sessions
        function onCurrentIdChanged(): void {
            if (!sidebar.list.activeFocus)
                window.focusInput()
        }
    }

    RowLayout {
        anchors.fill: parent
        spacing: 0

        SessionsSidebar {
            id: sidebar
            objectName: "sidebar"
            visible: !window.sidebarCollapsed
            // a narrow window keeps more of itself for the transcript
            Layout.preferredWidth: window.width < 800 ? 200 : 250
            Layout.fillHeight: true
            app: window.app
            theme: theme
            keys: window.keys
            onDone: window.focusInput()
            onDeleteAsked: window.confirmDelete()
            onToolsAsked: window.openDialog(toolsDialogLoader, "ToolsDialog.qml")
            onRemoteAsked: window.openDialog(remoteDialogLoader, "RemoteDialog.qml")
            onAttemptAsked: window.openLibrary("AttemptDialog.qml")
            onAgentAsked: (agent) => window.newAgentSession(agent)
            onEarlierAsked: (agent) => { window.app.earlier.choose(agent); window.openLibrary("EarlierDialog.qml") }
            onSettingsAsked: window.openDialog(settingsDialogLoader, "SettingsDialog.qml")
        }

        Rectangle {
            visible: !window.sidebarCollapsed
            Layout.preferredWidth: 1
            Layout.fillHeight: true
            color: theme.divider
        }

        ColumnLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: 0

            // each made while it shows, not for the first frame
            Loader {
                Layout.fillWidth: true
                active: window.app.connection.shown
                visible: item !== null  // gone, it keeps no room (a Loader keeps its last height)
                sourceComponent: ConnectionBanner {
                    app: window.app
                    theme: theme
                }
            }

            Loader {
                Layout.fillWidth: true
                active: window.app.notice.text !== ""
                visible: item !== null
                sourceComponent: NoticeBar {
                    app: window.app
                    theme: theme
                }
            }

            Transcript {
                id: transcript
                Layout.fillWidth: true
                maxContentWidth: 960
                Layout.fillHeight: true
                app: window.app
                theme: theme
                // text typed in the transcript (past its one-key commands) goes to the input
                Keys.onPressed: (event) => { event.accepted = composer.typeIn(event.text, event.modifiers) }
            }

            Composer {
                id: composer
                objectName: "composer"
                Layout.fillWidth: true
                Layout.maximumWidth: 960  // on a wide screen the text stays near its hints
                Layout.alignment: Qt.AlignHCenter
                Layout.margins: 12
                app: window.app
                theme: theme
                // a third of the window, and in a small one what leaves the transcript
                // its lines (at 640x420: 90 px of steps, over 7 lines of transcript)
                maxDockListHeight: Math.min(window.height / 3, 12 * 30, Math.max(60, window.height - 330))
                toolsKeys: window.keys["tools"]
                onSent: transcript.list.follow()  // sending always brings the view to it
            }
        }
    }
}
