pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib

// What a copy from the transcript put on the clipboard ("Copied: 262 entries, 4,529
// lines of text"), said for a moment over the transcript's corner, and to assistive
// technology as an alert.
Label {
    id: note

    required property TranscriptView view
    required property Theme theme

    objectName: "copiedNote"
    visible: shown.running
    padding: 6
    color: note.theme.text
    background: Rectangle { color: note.theme.userBubble; radius: 6 }
    Accessible.role: Accessible.AlertMessage
    Accessible.name: text
    Accessible.ignored: !visible  // no alert without words
    Timer { id: shown; interval: 1800 }
    Connections {
        target: note.view
        function onCopied(said: string): void {
            note.text = said
            shown.restart()
        }
    }
}
