pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib

// One line of the transcript: a message in its bubble (an agent's Markdown rendered by
// the window), a compact line for tool calls, checklist writes and turn ends, folded
// thoughts, summaries and long messages, and what a tool call did beneath it.
Item {
    id: entry

    required property TranscriptView view
    required property Theme theme
    required property bool unfoldAll  // Return in the transcript turns every line over
    required property string kind
    required property string text
    required property string preview
    required property bool isError
    required property bool warning
    required property string detail
    required property string detailHtml
    required property string detailPreview
    required property int index
    required property bool markdown
    required property string richShort
    required property string callInput  // a tool call's input: shown when unfolded
    // its words as a screen reader says them (a status glyph in words), whole and folded
    required property string spoken
    required property string spokenShort
    required property var images  // the images a tool call showed (data URLs): drawn small

    readonly property bool compact: kind === "tool_call" || kind === "tool_result" || kind === "todo"
                                    || kind === "turn_end" || kind === "summary" || thought
    // an agent's thought: kept, folded to its first line until clicked; a long
    // message: folded to its first lines until clicked
    readonly property bool thought: kind === "thought"
    // a compaction: its count on one line; unfolded, the summary the agent goes on from
    readonly property bool summary: kind === "summary" && text.indexOf("\n") >= 0
    readonly property bool long: preview.length > 0
    readonly property bool hasInput: callInput.length > 0
    // a click turns this line over; Return in the transcript turns them all
    property bool turned: false
    // ...and the line of the occurrence Ctrl+F shows is unfolded
    readonly property bool found: entry.view.findRow === entry.index
    readonly property bool unfolded: turned !== entry.unfoldAll || found
    readonly property string firstLine: thought || summary ? text.split("\n", 1)[0] : ""
    implicitHeight: bubble.implicitHeight + (detailBox.visible ? detailBox.implicitHeight + 4 : 0)
                    + (inputBox.visible ? inputBox.implicitHeight + 4 : 0)
                    + (thumbnails.visible ? thumbnails.implicitHeight + 4 : 0)

    HoverHandler { id: hover }

    // Qt lays a text out unwrapped when its natural width is first read, and says that
    // width changed during the read: a binding loop where the read is a binding's (the
    // bubble's, as a line kept in place turns from a compact or long one into a short
    // message). Read here, once, for a line that is not long; the bubble reads it after.
    property bool measured: false
    function measure(): void {
        if (!entry.long && !entry.measured)
            entry.measured = body.implicitWidth >= 0
    }
    onLongChanged: measure()
    Component.onCompleted: measure()

    // the keyboard into this line's text, to select in it (S in the transcript)
    function selectByKeys(): void {
        body.forceActiveFocus()
        body.cursorPosition = 0
    }

    // the line as written (a message's text, a tool's output or diff), on hover; M in
    // the transcript copies the last line in view. Made only for the line hovered: a
    // button in every line shown was a fifth of the transcript's memory.
    Loader {
        z: 1
        active: hover.hovered && entry.kind !== "turn_end"
        visible: active
        // beside a bubble, never over its words: left of the user's, right of a short
        // line; over the right edge only of a line as wide as the view
        y: bubble.y
        x: entry.kind === "user" ? Math.max(0, bubble.x - width - 4)
           : bubble.x + bubble.width + width + 4 <= entry.width ? bubble.x + bubble.width + 4
           : bubble.x + bubble.width - width
        sourceComponent: NibButton {
            objectName: "copyLine"
            text: qsTr("Copy")
            font.pixelSize: 11
            focusPolicy: Qt.NoFocus
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Copy this as written (M in the transcript: the last line in view)")
            Accessible.name: qsTr("Copy this line: %1").arg(entry.spokenShort.substring(0, 80))
            onClicked: entry.view.copyLine(entry.index)
        }
    }

    Rectangle {
        id: bubble
        anchors.right: entry.kind === "user" ? parent.right : undefined
        // a long message fills the width anyway: not laid out unwrapped to find out
        width: entry.compact ? parent.width
             : entry.long || !entry.measured ? parent.width * 0.85
             : Math.min(parent.width * 0.85, body.implicitWidth + 24)
        implicitHeight: body.implicitHeight + (entry.compact ? 4 : 16)
        radius: 8
        color: entry.kind === "user" ? entry.theme.userBubble : "transparent"

        // read-only and selectable: drag to select, Ctrl+C copies
        TextEdit {
            id: body
            objectName: "transcriptText"
            anchors.fill: parent
            anchors.margins: entry.compact ? 2 : 8
            text: entry.thought && !entry.unfolded
                  ? qsTr("Thought: %1%2").arg(entry.firstLine.length > 120 ? entry.firstLine.slice(0, 120) : entry.firstLine)
                                         .arg(entry.firstLine.length > 120 || entry.text.indexOf("\n") >= 0 ? " … ▸" : " ▸")
                  : entry.summary && !entry.unfolded ? qsTr("%1 — the summary ▸").arg(entry.firstLine)
                  : entry.markdown ? (entry.long && entry.unfolded ? entry.view.wholeRich(entry.index) : entry.richShort)
                  : entry.long && !entry.unfolded ? entry.preview
                  : entry.hasInput && !entry.unfolded ? qsTr("%1 ▸").arg(entry.text) : entry.text
            // an agent's message: Markdown rendered by the window (nib_desktop.state.markdown)
            textFormat: entry.markdown ? TextEdit.RichText : TextEdit.PlainText
            // a link opens only on a click, and only http, https and mailto ones
            // (a code block's "Copy" link copies that block as the agent wrote it)
            onLinkActivated: (link) => entry.view.activateLink(entry.index, link)
            HoverHandler {
                enabled: entry.markdown
                cursorShape: body.hoveredLink.length > 0 ? Qt.PointingHandCursor : Qt.IBeamCursor
            }
            ToolTip.visible: body.hoveredLink.length > 0
            ToolTip.text: body.hoveredLink.startsWith("copy:") ? qsTr("Copy this code block (C in the transcript: the last one in view)")
                                                               : body.hoveredLink
            font.italic: entry.thought
            readOnly: true
            selectByMouse: true
            // S in the transcript puts the keyboard here: arrows move, Shift+arrows select,
            // Ctrl+C copies the selection, Escape goes back to the transcript
            selectByKeyboard: true
            cursorVisible: activeFocus
            Keys.onEscapePressed: entry.ListView.view.forceActiveFocus()
            // with nothing selected here (a click put the focus here), Ctrl+C copies the
            // transcript, as it does from the list: never nothing (issue 47, point 12)
            Keys.onPressed: (event) => {
                if (event.matches(StandardKey.Copy) && body.selectedText === "") {
                    entry.view.copy()
                    event.accepted = true
                }
            }
            activeFocusOnTab: false
            wrapMode: TextEdit.Wrap
            selectionColor: entry.theme.selection
            selectedTextColor: entry.theme.text
            color: entry.isError ? entry.theme.danger
                 : entry.warning ? entry.theme.warning
                 : entry.compact ? entry.theme.muted : entry.theme.text
            font.pixelSize: entry.compact ? 13 : 14
            Accessible.role: Accessible.StaticText
            Accessible.name: (entry.thought ? qsTr("Agent's thought: ") : "")
                             + (entry.long && !entry.unfolded ? entry.spokenShort : entry.spoken)
            FindHighlight {
                document: entry.view.findQuery.length > 0 ? body.textDocument : null
                query: entry.view.findQuery
                colour: entry.found ? entry.theme.findCurrent : entry.theme.findMark
            }
            TapHandler {
                enabled: entry.thought || entry.summary || entry.long || entry.hasInput
                onTapped: entry.turned = !entry.turned
            }
        }
    }

    // what a tool call did: its diff (coloured) or its output, monospaced, folded
    // to its first lines until clicked (Return in the transcript unfolds all);
    // made only for the rows that have one
    Loader {
        id: detailBox
        active: entry.detailHtml.length > 0
        visible: active
        anchors.top: bubble.bottom
        anchors.topMargin: 4
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.leftMargin: 16
        sourceComponent: Rectangle {
            implicitHeight: detailText.implicitHeight + 12
            radius: 6
            color: entry.theme.userBubble
            TextEdit {
                id: detailText
                objectName: "toolDetail"
                anchors.fill: parent
                anchors.margins: 6
                text: entry.detailPreview.length > 0 && !entry.unfolded ? entry.detailPreview : entry.detailHtml
                // made by the window from escaped text (nib_desktop.state.rich)
                textFormat: TextEdit.RichText
                font.family: "monospace"
                font.pixelSize: 12
                color: entry.theme.text
                readOnly: true
                selectByMouse: true
                activeFocusOnTab: false
                wrapMode: TextEdit.WrapAnywhere
                selectionColor: entry.theme.selection
                selectedTextColor: entry.theme.text
                Accessible.role: Accessible.StaticText
                Accessible.name: entry.detail
                // a file the tool touched ("path:line", a diff's "+++ path"): the editor
                onLinkActivated: (link) => entry.view.activateLink(entry.index, link)
                HoverHandler {
                    cursorShape: detailText.hoveredLink.length > 0 ? Qt.PointingHandCursor : Qt.IBeamCursor
                }
                ToolTip.visible: detailText.hoveredLink.length > 0
                ToolTip.text: qsTr("Open in your editor")
                FindHighlight {
                    document: entry.view.findQuery.length > 0 ? detailText.textDocument : null
                    query: entry.view.findQuery
                    colour: entry.found ? entry.theme.findCurrent : entry.theme.findMark
                }
                TapHandler {
                    enabled: entry.detailPreview.length > 0
                    onTapped: entry.turned = !entry.turned
                }
            }
        }
    }

    // a tool call's input as it was given (the agent's own fields among it), unfolded
    Loader {
        id: inputBox
        active: entry.hasInput && entry.unfolded
        visible: active
        anchors.top: detailBox.visible ? detailBox.bottom : bubble.bottom
        anchors.topMargin: 4
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.leftMargin: 16
        sourceComponent: TextEdit {
            objectName: "toolInput"
            text: qsTr("Input:\n%1").arg(entry.callInput)
            textFormat: TextEdit.PlainText
            font.family: "monospace"
            font.pixelSize: 12
            color: entry.theme.muted
            readOnly: true
            selectByMouse: true
            activeFocusOnTab: false
            wrapMode: TextEdit.WrapAnywhere
            selectionColor: entry.theme.selection
            selectedTextColor: entry.theme.text
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
    }

    // the images a tool call showed, small; decoded here from the data the host kept
    Row {
        id: thumbnails
        objectName: "toolImages"
        visible: entry.images.length > 0
        anchors.top: inputBox.visible ? inputBox.bottom : detailBox.visible ? detailBox.bottom : bubble.bottom
        anchors.topMargin: 4
        anchors.left: parent.left
        anchors.leftMargin: 16
        spacing: 6
        Repeater {
            model: entry.images
            delegate: Image {
                required property string modelData
                objectName: "toolImage"
                source: modelData
                sourceSize.height: 120
                height: 120
                fillMode: Image.PreserveAspectFit
                asynchronous: true
                cache: false
                Accessible.role: Accessible.Graphic
                Accessible.name: qsTr("An image the tool showed")
            }
        }
    }
}
