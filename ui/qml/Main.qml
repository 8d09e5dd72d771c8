pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import "dialogs"

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

    // Dialogs are made on first use: nothing of them is built before the first frame.
    // Each gives the focus back to the input when it closes.
    function openDialog(loader: Loader): void {
        loader.active = true
        const dialog = loader.item as Dialog
        dialog.open()
    }

    function confirmDelete(): void {
        if (window.app.sessions.currentId !== "")
            window.openDialog(deleteDialogLoader)
    }

    Loader {
        id: closeDialogLoader
        active: false
        sourceComponent: Component {
            CloseDialog {
                app: window.app
                theme: theme
                onAccepted: { window.closeConfirmed = true; window.close() }
                onRejected: window.focusInput()
            }
        }
    }
    Loader {
        id: deleteDialogLoader
        active: false
        sourceComponent: Component {
            DeleteDialog { app: window.app; theme: theme; onClosed: window.focusInput() }
        }
    }
    Loader {
        id: toolsDialogLoader
        active: false
        sourceComponent: Component {
            ToolsDialog { app: window.app; theme: theme; onClosed: window.focusInput() }
        }
    }
    Loader {
        id: settingsDialogLoader
        active: false
        sourceComponent: Component {
            SettingsDialog { app: window.app; theme: theme; onClosed: window.focusInput() }
        }
    }
    Loader {
        id: agentDialogLoader
        active: false
        sourceComponent: Component {
            AgentDialog { app: window.app; theme: theme; onClosed: window.focusInput() }
        }
    }
    function newAgentSession(agent: string): void {
        agentDialogLoader.active = true
        const dialog = agentDialogLoader.item as AgentDialog
        dialog.agent = agent
        dialog.open()
    }
    Loader {
        id: remoteDialogLoader
        active: false
        sourceComponent: Component {
            RemoteDialog { app: window.app; theme: theme; onClosed: window.focusInput() }
        }
    }

    // Closing while turns run asks first: closing stops them (the host ends with the app).
    property bool closeConfirmed: false
    onClosing: (close) => {
        if (app.sessions.runningCount > 0 && !closeConfirmed) {
            close.accepted = false
            window.openDialog(closeDialogLoader)
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
    Shortcut {
        id: sidebarShortcut
        objectName: "sidebarShortcut"
        sequence: "Ctrl+B"
        onActivated: {
            window.sidebarCollapsed = !window.sidebarCollapsed
            if (window.sidebarCollapsed)
                window.focusInput()
        }
    }
    Shortcut {
        id: newShortcut
        objectName: "newShortcut"
        sequence: "Ctrl+N"
        onActivated: window.app.sessions.create("agent")
    }
    Shortcut {
        id: quitShortcut
        objectName: "quitShortcut"
        // as the window manager's close: asks first while turns run
        sequence: "Ctrl+Q"
        onActivated: window.close()
    }
    Shortcut {
        id: newMenuShortcut
        objectName: "newMenuShortcut"
        // every kind of session, the configured ACP agents included, by keyboard
        sequence: "Ctrl+Shift+N"
        onActivated: sidebar.openNewMenu()
    }
    Shortcut {
        id: forkShortcut
        sequence: "Ctrl+Shift+D"
        enabled: window.app.sessions.currentId !== "" && !window.app.sessions.currentRemote
        onActivated: window.app.sessions.fork()
    }
    Shortcut {
        id: deleteShortcut
        sequence: "Ctrl+Shift+Delete"
        enabled: window.app.sessions.currentId !== ""
        onActivated: window.confirmDelete()
    }
    Shortcut {
        id: previousShortcut
        sequence: "Ctrl+PgUp"
        onActivated: window.app.sessions.showAdjacent(-1)
    }
    Shortcut {
        sequence: "Alt+Up"
        onActivated: window.app.sessions.showAdjacent(-1)
    }
    Shortcut {
        id: nextShortcut
        sequence: "Ctrl+PgDown"
        onActivated: window.app.sessions.showAdjacent(1)
    }
    Shortcut {
        sequence: "Alt+Down"
        onActivated: window.app.sessions.showAdjacent(1)
    }
    Shortcut {
        id: toolsShortcut
        sequence: "Ctrl+Shift+T"
        onActivated: window.openDialog(toolsDialogLoader)
    }
    Shortcut {
        id: settingsShortcut
        objectName: "settingsShortcut"
        sequence: "Ctrl+,"
        onActivated: window.openDialog(settingsDialogLoader)
    }
    Shortcut {
        sequence: "F6"
        onActivated: window.cycleFocus(1)
    }
    Shortcut {
        sequence: "Shift+F6"
        onActivated: window.cycleFocus(-1)
    }

    // the keys as this platform writes them, for tooltips
    readonly property var keys: ({
        "new": newShortcut.nativeText,
        "newMenu": newMenuShortcut.nativeText,
        "fork": forkShortcut.nativeText,
        "delete": deleteShortcut.nativeText,
        "previous": previousShortcut.nativeText,
        "next": nextShortcut.nativeText,
        "tools": toolsShortcut.nativeText,
        "settings": settingsShortcut.nativeText
    })

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
            onToolsAsked: window.openDialog(toolsDialogLoader)
            onRemoteAsked: window.openDialog(remoteDialogLoader)
            onAgentAsked: (agent) => window.newAgentSession(agent)
            onSettingsAsked: window.openDialog(settingsDialogLoader)
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
                toolsKeys: toolsShortcut.nativeText
            }
        }
    }
}
