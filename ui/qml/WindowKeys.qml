pragma ComponentBehavior: Bound
import QtQuick
import Nib

// The window's own keys: sessions, dialogs, the sidebar, focus regions and quit. Each
// acts on the sessions view itself or asks the window by a signal; all are window-wide.
Item {
    id: keys

    required property SessionsView sessions
    required property ConnectionView connection
    required property AttemptView attempt
    signal sidebarToggled()
    signal quitRequested()
    signal newMenuRequested()
    signal deleteRequested()
    signal toolsRequested()
    signal changesRequested()
    signal settingsRequested()
    // the library of sessions: the shown one renamed or exported, all searched
    signal libraryRequested(string file)
    signal focusCycled(int step)

    Shortcut {
        id: sidebarShortcut
        objectName: "sidebarShortcut"
        sequence: "Ctrl+B"
        onActivated: keys.sidebarToggled()
    }
    Shortcut {
        id: newShortcut
        objectName: "newShortcut"
        sequence: "Ctrl+N"
        onActivated: keys.sessions.create("agent")
    }
    Shortcut {
        id: quitShortcut
        objectName: "quitShortcut"
        // as the window manager's close: asks first while turns run
        sequence: "Ctrl+Q"
        onActivated: keys.quitRequested()
    }
    // an unreachable remote session's host, tried now (the banner's Ctrl+R starts a
    // failed local host; the two are never enabled together)
    Shortcut {
        id: retryRemoteShortcut
        objectName: "retryRemoteShortcut"
        sequence: "Ctrl+R"
        enabled: keys.sessions.currentRemote && !keys.sessions.currentReachable
                 && keys.connection.state === "ready"
        onActivated: keys.sessions.retryRemote()
    }
    Shortcut {
        id: newMenuShortcut
        objectName: "newMenuShortcut"
        // every kind of session, the configured ACP agents included, by keyboard
        sequence: "Ctrl+Shift+N"
        onActivated: keys.newMenuRequested()
    }
    Shortcut {
        id: forkShortcut
        sequence: "Ctrl+Shift+D"
        enabled: keys.sessions.currentId !== "" && keys.sessions.currentReachable
        onActivated: keys.sessions.fork()
    }
    Shortcut {
        id: runsShortcut
        objectName: "runsShortcut"
        sequence: "Ctrl+Shift+A"  // the attempt's runs, side by side
        enabled: keys.attempt.present
        onActivated: keys.libraryRequested("RunsDialog.qml")
    }
    Shortcut {
        id: attemptShortcut
        objectName: "attemptShortcut"
        sequence: "Ctrl+Alt+N"  // one task tried by several agents (the composer's text)
        onActivated: keys.libraryRequested("AttemptDialog.qml")
    }
    Shortcut {
        id: deleteShortcut
        sequence: "Ctrl+Shift+Delete"
        enabled: keys.sessions.currentId !== ""
        onActivated: keys.deleteRequested()
    }
    Shortcut {
        id: previousShortcut
        sequence: "Ctrl+PgUp"
        onActivated: keys.sessions.showAdjacent(-1)
    }
    Shortcut {
        sequence: "Alt+Up"
        onActivated: keys.sessions.showAdjacent(-1)
    }
    Shortcut {
        id: nextShortcut
        sequence: "Ctrl+PgDown"
        onActivated: keys.sessions.showAdjacent(1)
    }
    Shortcut {
        sequence: "Alt+Down"
        onActivated: keys.sessions.showAdjacent(1)
    }
    Shortcut {
        id: toolsShortcut
        sequence: "Ctrl+Shift+T"
        onActivated: keys.toolsRequested()
    }
    Shortcut {
        id: changesShortcut
        objectName: "changesShortcut"
        sequence: "Ctrl+Shift+G"
        enabled: keys.sessions.currentId !== ""
        onActivated: keys.changesRequested()
    }
    Shortcut {
        id: settingsShortcut
        objectName: "settingsShortcut"
        sequence: "Ctrl+,"
        onActivated: keys.settingsRequested()
    }
    Shortcut {
        id: renameShortcut
        objectName: "renameShortcut"
        sequence: "F2"
        enabled: keys.sessions.currentId !== "" && keys.sessions.currentReachable
        onActivated: keys.libraryRequested("RenameDialog.qml")
    }
    Shortcut {
        id: searchShortcut
        objectName: "searchShortcut"
        sequence: "Ctrl+Shift+F"
        onActivated: keys.libraryRequested("SearchDialog.qml")
    }
    Shortcut {
        id: exportShortcut
        objectName: "exportShortcut"
        sequence: "Ctrl+Shift+E"
        enabled: keys.sessions.currentId !== "" && keys.sessions.currentReachable
        onActivated: keys.libraryRequested("ExportDialog.qml")
    }
    Shortcut {
        sequence: "F6"
        onActivated: keys.focusCycled(1)
    }
    Shortcut {
        sequence: "Shift+F6"
        onActivated: keys.focusCycled(-1)
    }

    // the keys as this platform writes them, for tooltips and the palette
    readonly property var texts: ({
        "new": newShortcut.nativeText,
        "newMenu": newMenuShortcut.nativeText,
        "attempt": attemptShortcut.nativeText,
        "fork": forkShortcut.nativeText,
        "delete": deleteShortcut.nativeText,
        "previous": previousShortcut.nativeText,
        "next": nextShortcut.nativeText,
        "tools": toolsShortcut.nativeText,
        "changes": changesShortcut.nativeText,
        "settings": settingsShortcut.nativeText,
        "rename": renameShortcut.nativeText,
        "search": searchShortcut.nativeText,
        "export": exportShortcut.nativeText,
        "sidebar": sidebarShortcut.nativeText,
        "palette": "Ctrl+K",
        "retryRemote": retryRemoteShortcut.nativeText,
        "quit": quitShortcut.nativeText
    })
}
