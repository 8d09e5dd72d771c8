pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// "/" typed in the input: the commands it may begin, with what each does. The input's
// keys choose (Up, Down) and complete (Tab); a tap completes too.
ColumnLayout {
    id: completion
    objectName: "slashCompletions"

    required property ComposerView composer
    required property Theme theme
    required property TextArea input
    property var matches: completion.input.text.startsWith("/") ? completion.composer.completions(completion.input.text) : []
    property int chosen: 0
    onMatchesChanged: completion.chosen = 0
    function complete(): void {
        const match = completion.matches[Math.min(completion.chosen, completion.matches.length - 1)]
        completion.input.text = match.name
        completion.input.cursorPosition = completion.input.length
    }
    visible: completion.matches.length > 0 && completion.input.activeFocus
    spacing: 0
    Repeater {
        model: completion.matches
        delegate: Rectangle {
            id: choice
            required property var modelData
            required property int index
            objectName: "slashCompletion"
            readonly property bool chosen: choice.index === completion.chosen
            Layout.fillWidth: true
            implicitHeight: 24
            radius: 4
            color: chosen ? completion.theme.accent : "transparent"
            Accessible.role: Accessible.ListItem
            Accessible.name: choice.modelData.name + ", " + choice.modelData.what
            RowLayout {
                anchors.fill: parent
                anchors.leftMargin: 6
                anchors.rightMargin: 6
                spacing: 10
                Text {
                    text: choice.modelData.name
                    textFormat: Text.PlainText
                    font.bold: true
                    color: choice.chosen ? completion.theme.accentText : completion.theme.text
                }
                Text {
                    Layout.fillWidth: true
                    text: choice.modelData.what + (choice.chosen ? qsTr("  (Tab)") : "")
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                    color: choice.chosen ? completion.theme.accentText : completion.theme.muted
                }
            }
            TapHandler {
                onTapped: { completion.chosen = choice.index; completion.complete(); completion.input.forceActiveFocus() }
            }
        }
    }
}
