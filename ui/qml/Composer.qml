pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The Composer: the TodoDock above a multi-line input, the session's mode, Send and Stop.
Rectangle {
    id: composer

    required property MainController controller
    required property Theme theme
    required property real maxDockListHeight
    readonly property alias input: input
    readonly property alias dock: dock

    implicitHeight: column.implicitHeight
    radius: 10
    color: theme.surface
    border.color: theme.divider
    clip: true

    function submit(): void {
        if (composer.controller.startTurn(input.text))
            input.clear()
    }

    // Ctrl+T toggles the dock without moving focus.
    Shortcut {
        id: toggleShortcut
        sequence: "Ctrl+T"
        context: Qt.WindowShortcut
        onActivated: composer.controller.dock.toggleExpanded()
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
            model: composer.controller.dock
            controller: composer.controller
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

        ScrollView {
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(Math.max(input.implicitHeight, 44), 160)
            TextArea {
                id: input
                objectName: "composerInput"
                focus: true
                wrapMode: TextEdit.Wrap
                textFormat: TextEdit.PlainText
                placeholderText: composer.controller.currentRemote
                    ? qsTr("Remote sessions are read-only here.")
                    : qsTr("Describe a task — Enter sends, Shift+Enter adds a line")
                color: composer.theme.text
                placeholderTextColor: composer.theme.muted
                background: null
                Keys.onReturnPressed: (event) => {
                    if (event.modifiers & Qt.ShiftModifier) {
                        event.accepted = false
                    } else {
                        composer.submit()
                        event.accepted = true
                    }
                }
                Keys.onEnterPressed: (event) => { composer.submit(); event.accepted = true }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.margins: 8
            spacing: 8
            Label {
                text: qsTr("Mode: %1").arg(composer.controller.currentMode)
                color: composer.theme.muted
                font.pixelSize: 12
            }
            Item { Layout.fillWidth: true }
            Button {
                objectName: "stopButton"
                text: qsTr("Stop")
                focusPolicy: Qt.NoFocus
                visible: composer.controller.currentRunning
                onClicked: composer.controller.cancelTurn()
            }
            Button {
                objectName: "sendButton"
                text: qsTr("Send")
                focusPolicy: Qt.NoFocus
                highlighted: true
                enabled: input.text.trim().length > 0 && !composer.controller.currentRunning
                         && !composer.controller.currentRemote
                onClicked: composer.submit()
            }
        }
    }
}
