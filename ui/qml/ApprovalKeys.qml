pragma ComponentBehavior: Bound
import QtQuick

// The keys that answer a waiting tool call from anywhere in the window, always taken
// (never typed into the input); their texts as this platform writes them, for the row.
Item {
    id: keys

    signal answered(string decision)

    readonly property string allowOnce: allowOnceShortcut.nativeText
    readonly property string allowSession: allowSessionShortcut.nativeText
    readonly property string allowAlways: allowAlwaysShortcut.nativeText
    readonly property string deny: denyShortcut.nativeText

    Shortcut {
        id: allowOnceShortcut
        sequence: "Alt+Y"
        context: Qt.WindowShortcut
        onActivated: keys.answered("allow_once")
    }
    Shortcut {
        id: allowSessionShortcut
        sequence: "Alt+S"
        context: Qt.WindowShortcut
        onActivated: keys.answered("allow_session")
    }
    Shortcut {
        id: allowAlwaysShortcut
        sequence: "Alt+A"
        context: Qt.WindowShortcut  // an agent's own lasting permission, where it offers one
        onActivated: keys.answered("allow_always")
    }
    Shortcut {
        id: denyShortcut
        sequence: "Alt+N"
        context: Qt.WindowShortcut
        onActivated: keys.answered("deny")
    }
}
