pragma ComponentBehavior: Bound
import QtQuick
import Nib

// The command palette (Ctrl+K, Ctrl+Shift+P), made on first use like the dialogs: what it
// lists is made by its view, and each command runs here by its id, or asks the window by
// a signal. Ctrl+Shift+M and Ctrl+Shift+O open it on an agent's modes and models.
Item {
    id: host

    required property AppViews app
    required property Theme theme
    // the window's and the composer's keys, as the platform writes them
    required property var keys
    required property bool sidebarCollapsed
    readonly property var texts: ({ "mode": modeShortcut.nativeText, "model": modelShortcut.nativeText })

    signal closed()
    signal dialogRequested(string file)
    signal agentRequested(string agent)
    signal deleteRequested()
    signal libraryRequested(string file)
    signal changesRequested()
    signal historyRequested()
    signal feedbackRequested()
    signal sidebarToggled()
    signal quitRequested()

    // `typed`: the palette opens with it in its field ("Mode: " lists the modes)
    function open(typed: string): void {
        paletteLoader.active = true
        const palette = paletteLoader.item as CommandPalette
        palette.show(host.commands(), typed, host.app.palette.nothingToChoose(typed))
    }

    function commands(): var {
        const keys = Object.assign({}, host.keys, host.texts)
        return host.app.palette.commands(keys, host.sidebarCollapsed).map(
            (command) => ({ name: command.name, key: command.key,
                            run: () => host.run(command.id, command.arg) }))
    }

    function run(id: string, arg: string): void {
        const sessions = host.app.sessions
        switch (id) {
        case "new": sessions.create(arg); break
        case "remote": host.dialogRequested("RemoteDialog.qml"); break
        case "agent": host.agentRequested(arg); break
        case "stop": host.app.composer.stop(); break
        case "continue": host.app.dock.continueTurn(); break
        case "compact": host.app.composer.send("/compact"); break
        case "retryRemote": sessions.retryRemote(); break
        case "fork": sessions.fork(); break
        case "delete": host.deleteRequested(); break
        case "rename": host.libraryRequested("RenameDialog.qml"); break
        case "search": host.libraryRequested("SearchDialog.qml"); break
        case "export": host.libraryRequested("ExportDialog.qml"); break
        case "toggleDock": host.app.dock.toggleExpanded(); break
        case "history": host.historyRequested(); break
        case "feedback": host.feedbackRequested(); break
        case "changes": host.changesRequested(); break
        case "merge": host.libraryRequested("MergeDialog.qml"); break
        case "earlier": host.app.earlier.choose(arg); host.libraryRequested("EarlierDialog.qml"); break
        case "attempt": host.libraryRequested("AttemptDialog.qml"); break
        case "runs": host.libraryRequested("RunsDialog.qml"); break
        case "stopRuns": host.app.attempt.stopAll(); break
        case "removeWorktree": host.app.worktree.remove(false); break
        case "tools": host.dialogRequested("ToolsDialog.qml"); break
        case "settings": host.dialogRequested("SettingsDialog.qml"); break
        case "sidebar": host.sidebarToggled(); break
        case "look": host.app.settings.setAppearance(arg); break
        case "motion": host.app.settings.set("reducedMotion", arg === "on"); break
        case "show": sessions.show(arg); break
        case "quit": host.quitRequested(); break
        default: host.app.palette.run(id, arg); break  // an agent's mode, option, sign-in
        }
    }

    Loader {
        id: paletteLoader
        active: false
        sourceComponent: Component {
            CommandPalette { theme: host.theme; onClosed: host.closed() }
        }
    }
    Shortcut {
        objectName: "paletteShortcut"
        sequences: ["Ctrl+K", "Ctrl+Shift+P"]
        onActivated: host.open("")
    }
    Shortcut {
        id: modeShortcut
        objectName: "modeShortcut"
        sequence: "Ctrl+Shift+M"
        onActivated: host.open("Mode: ")
    }
    Shortcut {
        id: modelShortcut
        objectName: "modelShortcut"
        sequence: "Ctrl+Shift+O"
        onActivated: host.open("Model: ")
    }
}
