pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

// Every action of the window, found by typing a few letters of its name (Ctrl+K or
// Ctrl+Shift+P): Up and Down choose, Return runs, Escape closes. Each row shows its key.
// The window gives the commands when it opens, so the list is what can be done now.
Popup {
    id: palette

    required property Theme theme
    // [{name, key, run}], in the order shown when nothing is typed
    property var commands: []
    readonly property var shown: palette.matching(field.text)

    // Every word typed is in the name (in any order, any case).
    function matching(typed: string): var {
        const words = typed.toLowerCase().split(/\s+/).filter((word) => word !== "")
        return palette.commands.filter(
            (command) => words.every((word) => command.name.toLowerCase().includes(word)))
    }

    function run(index: int): void {
        if (index < 0 || index >= palette.shown.length)
            return
        const command = palette.shown[index]
        palette.close()
        // after the palette has closed and given the focus back, so a dialog keeps its own
        Qt.callLater(command.run)
    }

    // what an empty list means, for what it was opened with (`show`): "Codex offers no
    // modes"; "" says no command matches what is typed
    property string emptyText: ""

    function show(commands: var, typed: string, empty: string): void {
        palette.commands = commands
        palette.emptyText = empty
        field.text = typed
        list.currentIndex = 0
        palette.open()
    }

    objectName: "commandPalette"
    parent: Overlay.overlay
    x: Math.round((parent.width - width) / 2)
    y: Math.round(Math.min(parent.height / 8, 60))
    width: Math.max(280, Math.min(560, parent.width - 40))
    padding: 6
    modal: true
    focus: true
    closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside
    onOpened: field.forceActiveFocus()

    background: Rectangle {
        color: palette.theme.window
        border.color: palette.theme.divider
        radius: 6
    }

    contentItem: ColumnLayout {
        spacing: 4

        TextField {
            id: field
            objectName: "paletteField"
            Layout.fillWidth: true
            placeholderText: qsTr("Type a command")
            Accessible.name: qsTr("Command")
            Accessible.description: qsTr("Up and Down choose, Return runs, Escape closes")
            onTextChanged: list.currentIndex = 0
            Keys.onDownPressed: list.currentIndex = Math.min(list.currentIndex + 1, list.count - 1)
            Keys.onUpPressed: list.currentIndex = Math.max(list.currentIndex - 1, 0)
            Keys.onPressed: (event) => {
                if (event.key === Qt.Key_PageDown || event.key === Qt.Key_PageUp) {
                    const page = Math.max(1, Math.floor(list.height / 30))
                    const step = event.key === Qt.Key_PageDown ? page : -page
                    list.currentIndex = Math.max(0, Math.min(list.count - 1, list.currentIndex + step))
                    event.accepted = true
                }
            }
            Keys.onReturnPressed: palette.run(list.currentIndex)
            Keys.onEnterPressed: palette.run(list.currentIndex)
        }

        Text {
            objectName: "paletteEmpty"
            Layout.fillWidth: true
            Layout.margins: 6
            visible: list.count === 0
            text: palette.emptyText !== "" ? palette.emptyText
                                           : qsTr("No command matches “%1”.").arg(field.text.trim())
            textFormat: Text.PlainText
            color: palette.theme.muted
            elide: Text.ElideRight
        }

        ListView {
            id: list
            objectName: "paletteList"
            Layout.fillWidth: true
            // twelve rows, fewer in a small window: the palette never runs off its bottom
            Layout.preferredHeight: Math.min(contentHeight, 30 * 12,
                                             Math.max(90, palette.parent.height - palette.y - 80))
            clip: true
            model: palette.shown
            activeFocusOnTab: false
            highlightMoveDuration: 0
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus }
            delegate: ItemDelegate {
                id: row
                required property var modelData
                required property int index
                objectName: "paletteRow"
                width: list.width
                height: 30
                focusPolicy: Qt.NoFocus
                highlighted: ListView.isCurrentItem
                Accessible.name: row.modelData.key !== "" ? row.modelData.name + ", " + row.modelData.key
                                                           : row.modelData.name
                onClicked: palette.run(row.index)
                contentItem: RowLayout {
                    spacing: 12
                    Text {
                        objectName: "paletteName"
                        Layout.fillWidth: true
                        text: row.modelData.name
                        textFormat: Text.PlainText
                        elide: Text.ElideRight
                        color: row.highlighted ? palette.theme.accentText : palette.theme.text
                    }
                    Text {
                        objectName: "paletteKey"
                        text: row.modelData.key
                        textFormat: Text.PlainText
                        color: row.highlighted ? palette.theme.accentText : palette.theme.muted
                    }
                }
            }
        }
    }
}
