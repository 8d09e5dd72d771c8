pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib

// What an agent's session waits for from the user, as buttons: its own sign-in methods
// after a turn refused for want of one, or, in its plan mode, approving the plan or
// asking for changes. Alt+1, Alt+2 and Alt+3 press the first three. The buttons wrap to
// a next line where the window is narrow (a row of them held the composer wider than it).
Flow {
    id: row
    objectName: "agentAsksRow"

    required property AgentAsksView composer
    required property Theme theme

    // the buttons, read again whenever the composer's view changes
    readonly property var asks: {
        void row.composer.asksCount
        void row.composer.asksTitle
        return row.composer.agentAsks()
    }
    visible: row.asks.length > 0
    spacing: 6
    Label {
        objectName: "agentAsksTitle"
        width: Math.min(implicitWidth, row.width)
        height: implicitHeight + 8  // beside the buttons' middle
        verticalAlignment: Text.AlignVCenter
        text: row.composer.asksTitle
        textFormat: Text.PlainText
        elide: Text.ElideRight
        color: row.theme.text
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }
    Repeater {
        model: row.asks
        delegate: NibButton {
            required property var modelData
            required property int index
            objectName: "agentAsk_" + modelData.id
            text: index < 3 ? qsTr("%1 (Alt+%2)").arg(modelData.name).arg(index + 1) : modelData.name
            ToolTip.visible: hovered || activeFocus
            ToolTip.text: modelData.description
            Accessible.name: modelData.name
            Accessible.description: modelData.description
            onClicked: row.composer.answerAsk(modelData.id)
        }
    }
    Repeater {
        model: 3
        delegate: Item {
            id: key
            required property int index
            Shortcut {
                sequence: "Alt+" + (key.index + 1)
                enabled: row.visible && key.index < row.asks.length
                context: Qt.WindowShortcut
                onActivated: row.composer.answerAsk(row.asks[key.index].id)
            }
        }
    }
}
