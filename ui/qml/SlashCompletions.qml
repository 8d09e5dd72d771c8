pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// "/" typed in the input: the commands it may begin, with what each does; "@" before the
// cursor in a local agent's session: the files of its folder that match the letters after
// it (they go with the message). The input's keys choose (Up, Down) and complete (Tab, and
// Return for a file); a tap completes too.
ColumnLayout {
    id: completion
    objectName: "slashCompletions"

    required property ComposerView composer
    required property TextArea input
    required property Theme theme
    // "@…" just before the cursor: `mention` what follows the "@"
    readonly property var mentioned: completion.composer.attachable
        ? completion.input.text.slice(0, completion.input.cursorPosition).match(/(?:^|\s)@(\S*)$/)
        : null
    readonly property bool mentioning: completion.mentioned !== null
    readonly property string mention: completion.mentioning ? completion.mentioned[1] : ""
    property var files: []
    property var matches: completion.input.text.startsWith("/") ? completion.composer.completions(completion.input.text)
                        : completion.mentioning ? completion.files : []
    property int chosen: 0
    onMatchesChanged: completion.chosen = 0
    onMentionChanged: if (completion.mentioning) completion.composer.findFiles(completion.mention)
    onMentioningChanged: if (completion.mentioning) completion.composer.findFiles(completion.mention)
    Connections {
        target: completion.composer
        function onFilesChanged(): void { completion.files = completion.composer.files() }
    }
    function complete(): void {
        const match = completion.matches[Math.min(completion.chosen, completion.matches.length - 1)]
        if (!completion.mentioning) {
            completion.input.text = match.name
            completion.input.cursorPosition = completion.input.length
            return
        }
        const text = completion.input.text
        const at = completion.input.cursorPosition
        const start = text.lastIndexOf("@", at - 1)
        completion.input.text = text.slice(0, start) + match.name + " " + text.slice(at)
        completion.input.cursorPosition = start + match.name.length + 1
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
                             + (choice.modelData.whose ? qsTr(", %1's").arg(choice.modelData.whose) : "")
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
                // whose command it is: the agent's own (by its name) or Nib's
                Text {
                    objectName: "completionWhose"
                    visible: (choice.modelData.whose ?? "") !== ""
                    text: choice.modelData.whose ?? ""
                    textFormat: Text.PlainText
                    font.pixelSize: 11
                    color: choice.chosen ? completion.theme.accentText : completion.theme.muted
                }
            }
            TapHandler {
                onTapped: { completion.chosen = choice.index; completion.complete(); completion.input.forceActiveFocus() }
            }
        }
    }
}
