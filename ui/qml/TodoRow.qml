pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// One checklist row: a status glyph and the item's plain text, wrapped, never cut. On
// hover, or as the list's current row by keyboard, it offers the user's feedback on the
// step (comment, skip, move, add one after): asks for the agent, never an edit.
Item {
    id: row

    required property string content
    required property string status
    required property string glyph
    required property string activeForm
    required property int number
    required property string accessibleName
    required property bool interrupted
    required property string endedWord
    required property bool sweeping
    required property string filesText
    required property string askedText  // what the user's held asks ask of it, "" none
    required property Theme theme
    required property ChangesView changes
    required property FeedbackView feedback
    required property int index
    // the list's current row while the keyboard is in the list
    property bool current: false
    property bool reducedMotion: false
    // the row can be seen (the list is open): only then does the sweep move
    property bool animate: false

    readonly property bool done: status === "completed" || status === "cancelled"
    readonly property color textColor: done || interrupted ? theme.muted : theme.text
    readonly property bool offering: feedback.possible && (current || rowHover.hovered)

    // Comment… and Add… want words: the dock asks for them
    signal wordsAsked(string kind, int row, string step)

    function act(kind: string): void {
        if (kind === "skip")
            row.feedback.skip(row.index)
        else if (kind === "up" || kind === "down")
            row.feedback.move(row.index, kind === "up" ? -1 : 1)
        else
            row.wordsAsked(kind, row.index, row.content)
    }

    objectName: "todoRow"
    implicitHeight: Math.max(24, layout.implicitHeight + 12)
    Accessible.role: Accessible.ListItem
    Accessible.name: askedText !== "" ? qsTr("%1. %2").arg(accessibleName).arg(askedText) : accessibleName

    HoverHandler { id: rowHover }

    Rectangle {
        anchors.fill: parent
        visible: row.current
        color: "transparent"
        border.color: row.theme.accent
        border.width: 1
        radius: 3
    }

    RowLayout {
        id: layout
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.verticalCenter: parent.verticalCenter
        anchors.leftMargin: 10
        anchors.rightMargin: 14
        spacing: 0

        // the glyph centred on the text's first line; ✓ drawn a little larger, as it
        // is smaller than ○ and ◐ in most fonts
        Text {
            objectName: "glyph"
            Layout.preferredWidth: 20
            Layout.preferredHeight: firstLine.height
            Layout.alignment: Qt.AlignTop
            verticalAlignment: Text.AlignVCenter
            text: row.glyph
            color: row.status === "completed" ? row.theme.green
                 : row.status === "in_progress" && !row.interrupted ? row.theme.accent
                 : row.theme.muted
            font.pixelSize: row.status === "completed" ? 15 : 13
        }

        FontMetrics {
            id: firstLine
            font.pixelSize: 13
        }

        Text {
            id: label
            objectName: "rowText"
            readonly property bool plain: textFormat === Text.PlainText
            Layout.fillWidth: true
            visible: !row.sweeping
            text: row.content + (row.interrupted ? "  — " + row.endedWord : "")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: row.sweeping && row.reducedMotion ? row.theme.accent : row.textColor
            font.pixelSize: 13
            font.strikeout: row.status === "cancelled"
        }

        // Only the running row pays for the painted item.
        Loader {
            id: sweepLoader
            Layout.fillWidth: true
            Layout.preferredWidth: 0  // all the width the row has, then wrap
            Layout.preferredHeight: implicitHeight  // the loaded text's, wrapped
            visible: row.sweeping
            active: row.sweeping
            sourceComponent: SweepText {
                id: sweep
                objectName: "sweepText"
                text: row.content
                font: label.font
                color: row.reducedMotion ? row.theme.accent : row.theme.text
                bandColor: row.theme.sweepBand
                sweeping: sweep.running
                running: !row.reducedMotion && row.animate
            }
        }

        // what the user asked of the step, held until sent ("Asked: skip")
        Text {
            objectName: "stepAsked"
            visible: row.askedText !== ""
            Layout.alignment: Qt.AlignTop
            leftPadding: 8
            text: row.askedText
            textFormat: Text.PlainText
            color: row.theme.accent
            font.pixelSize: 12
            font.italic: true
        }

        // what the step changed in the folder ("3 files"): a click shows those changes
        Text {
            objectName: "stepFiles"
            visible: row.filesText !== ""
            Layout.alignment: Qt.AlignTop
            leftPadding: 8
            text: row.filesText
            textFormat: Text.PlainText
            color: row.theme.accent
            font.pixelSize: 12
            font.underline: filesHover.hovered
            Accessible.role: Accessible.Link
            Accessible.name: qsTr("%1 changed by this step: show them").arg(row.filesText)
            Accessible.ignored: !visible
            HoverHandler { id: filesHover; cursorShape: Qt.PointingHandCursor }
            TapHandler { onTapped: row.changes.ask(row.content) }
        }

        // the feedback on this step: each a ToolButton that leaves the focus where it is;
        // made only for the row that offers it (hovered, or the keyboard's): five
        // buttons in every row of a long checklist were most of the dock's memory
        Loader {
            objectName: "rowActions"
            active: row.offering
            visible: active
            Layout.alignment: Qt.AlignTop
            sourceComponent: Row {
                leftPadding: 6
                Repeater {
                    model: [
                        { kind: "comment", label: "✎", name: qsTr("Comment on this step") },
                        { kind: "skip", label: "⊘", name: qsTr("Ask to skip this step") },
                        { kind: "up", label: "↑", name: qsTr("Ask to move this step up") },
                        { kind: "down", label: "↓", name: qsTr("Ask to move this step down") },
                        { kind: "add", label: "+", name: qsTr("Ask for a step after this one") }
                    ]
                    delegate: ToolButton {
                        id: action
                        required property var modelData
                        objectName: "ask_" + modelData.kind
                        text: modelData.label
                        font.pixelSize: 12
                        padding: 2
                        topPadding: 0
                        bottomPadding: 0
                        // no taller than a line of text: a row keeps its height when
                        // chosen, so the list does not shift under the keys
                        implicitHeight: firstLine.height
                        focusPolicy: Qt.NoFocus
                        enabled: modelData.kind === "comment" || modelData.kind === "add" || !row.done
                        ToolTip.visible: hovered
                        ToolTip.text: modelData.name
                        Accessible.name: modelData.name
                        onClicked: row.act(modelData.kind)
                    }
                }
            }
        }
    }
}
