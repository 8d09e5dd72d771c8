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
        const dockList = composer.dock.list
        const regions = (window.sidebarCollapsed ? [] : [sidebar.list])
            .concat([transcript.list], dockList.visible ? [dockList] : [], [composer.input])
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
            // every dialog gives the keyboard back to the input when it closes
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

    // the Changes view of the shown session, on the step `step` when given
    function openChanges(step: string): void {
        window.app.changes.open(step)
        window.openDialog(changesDialogLoader, "ChangesDialog.qml")
    }
    Loader { id: settingsDialogLoader }
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
    // The command palette (Ctrl+K, Ctrl+Shift+P), made on first use like the dialogs.
    Loader {
        id: paletteLoader
        active: false
        sourceComponent: Component {
            CommandPalette { theme: theme; onClosed: window.focusInput() }
        }
    }
    function openPalette(): void {
        paletteLoader.active = true
        const palette = paletteLoader.item as CommandPalette
        palette.show(window.commands())
    }

    // Everything the window can do now, with its key: what the palette lists.
    function commands(): var {
        const sessions = window.app.sessions
        const settings = window.app.settings
        const hasSession = sessions.currentId !== ""
        const running = sessions.currentRunning
        const choices = sessions.choices()
        const list = [
            { name: qsTr("New agent session"), key: window.keys["new"], run: () => sessions.create("agent") },
            { name: qsTr("New plan session"), key: "", run: () => sessions.create("plan") },
            { name: qsTr("New goal session"), key: "", run: () => sessions.create("goal") },
            { name: qsTr("New remote session…"), key: "", run: () => window.openDialog(remoteDialogLoader, "RemoteDialog.qml") }
        ]
        for (const agent of choices.filter((choice) => choice.kind === "agent"))
            list.push({ name: qsTr("New %1 session…").arg(agent.title), key: "",
                        run: () => window.newAgentSession(agent.id) })
        if (running)
            list.push({ name: qsTr("Stop the turn"), key: qsTr("Esc"), run: () => window.app.composer.stop() })
        if (window.app.dock.canContinue)
            list.push({ name: qsTr("Continue from the first unfinished step"), key: qsTr("Ctrl+Enter"),
                        run: () => window.app.dock.continueTurn() })
        if (hasSession && !running && !sessions.currentRemote)
            list.push({ name: qsTr("Compact the conversation"), key: "/compact",
                        run: () => window.app.composer.send("/compact") })
        if (sessions.currentRemote && !sessions.currentReachable)
            list.push({ name: qsTr("Reach the remote host now"), key: window.keys["retryRemote"],
                        run: () => sessions.retryRemote() })
        if (hasSession && !sessions.currentRemote)
            list.push({ name: qsTr("Fork this session"), key: window.keys["fork"], run: () => sessions.fork() })
        if (hasSession)
            list.push({ name: qsTr("Delete this session…"), key: window.keys["delete"],
                        run: () => window.confirmDelete() })
        // the checklist's actions where there is a checklist
        if (window.app.dock.shown && !window.app.dock.unavailable) {
            list.push({ name: qsTr("Show or hide the checklist"), key: composer.keys["toggle"],
                        run: () => window.app.dock.toggleExpanded() })
            list.push({ name: qsTr("Checklist history"), key: composer.keys["history"],
                        run: () => composer.dock.toggleHistory() })
        }
        if (hasSession)
            list.push({ name: qsTr("Changes in the folder"), key: window.keys["changes"],
                        run: () => window.openChanges("") })
        list.push({ name: qsTr("Tools and agents"), key: window.keys["tools"],
                    run: () => window.openDialog(toolsDialogLoader, "ToolsDialog.qml") })
        list.push({ name: qsTr("Settings"), key: window.keys["settings"],
                    run: () => window.openDialog(settingsDialogLoader, "SettingsDialog.qml") })
        list.push({ name: window.sidebarCollapsed ? qsTr("Show the sessions list") : qsTr("Hide the sessions list"),
                    key: window.keys["sidebar"], run: () => window.toggleSidebar() })
        const looks = [["system", qsTr("Theme: as the system")], ["light", qsTr("Theme: light")],
                       ["dark", qsTr("Theme: dark")]]
        for (const [look, name] of looks) {
            if (settings.appearance !== look)
                list.push({ name: name, key: "", run: () => settings.setAppearance(look) })
        }
        list.push({ name: settings.reducedMotion ? qsTr("Reduced motion: off (the sweep moves)")
                                                 : qsTr("Reduced motion: on (no sweep)"),
                    key: "", run: () => settings.set("reducedMotion", !settings.reducedMotion) })
        for (const session of choices.filter((choice) => choice.kind === "session")) {
            if (session.id !== sessions.currentId)
                list.push({ name: qsTr("Go to: %1").arg(session.title), key: "",
                            run: () => sessions.show(session.id) })
        }
        list.push({ name: qsTr("Quit Nib"), key: window.keys["quit"], run: () => window.close() })
        return list
    }
    Shortcut {
        id: paletteShortcut
        objectName: "paletteShortcut"
        sequences: ["Ctrl+K", "Ctrl+Shift+P"]
        onActivated: window.openPalette()
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

    // The controls (buttons, fields, menus, dialogs) take their colours from the theme,
    // so every text and state meets the contrast the theme is checked for.
    palette.window: theme.window
    palette.windowText: theme.text
    palette.base: theme.window
    palette.alternateBase: theme.surface
    palette.text: theme.text
    palette.button: theme.surface
    palette.buttonText: theme.text
    palette.brightText: theme.accentText
    palette.highlight: theme.accent
    palette.highlightedText: theme.accentText
    palette.placeholderText: theme.muted
    palette.toolTipBase: theme.surface
    palette.toolTipText: theme.text
    palette.mid: theme.divider
    palette.disabled.buttonText: theme.disabledText
    palette.disabled.text: theme.disabledText
    palette.disabled.windowText: theme.disabledText
    palette.disabled.button: theme.window

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
        onSidebarToggled: window.toggleSidebar()
        onQuitRequested: window.close()
        onNewMenuRequested: sidebar.openNewMenu()
        onDeleteRequested: window.confirmDelete()
        onToolsRequested: window.openDialog(toolsDialogLoader, "ToolsDialog.qml")
        onChangesRequested: window.openChanges("")
        onSettingsRequested: window.openDialog(settingsDialogLoader, "SettingsDialog.qml")
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
            onAgentAsked: (agent) => window.newAgentSession(agent)
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

            ConnectionBanner {
                Layout.fillWidth: true
                app: window.app
                theme: theme
            }

            NoticeBar {
                Layout.fillWidth: true
                app: window.app
                theme: theme
            }

            Transcript {
                id: transcript
                Layout.fillWidth: true
                maxContentWidth: 960
                Layout.fillHeight: true
                app: window.app
                theme: theme
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
                maxDockListHeight: Math.min(window.height / 3, 12 * 30)
                toolsKeys: window.keys["tools"]
            }
        }
    }
}
