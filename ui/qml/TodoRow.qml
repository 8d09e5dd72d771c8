pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Nib

// One checklist row: a status glyph and the item's plain text, wrapped, never cut.
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
    required property Theme theme
    required property ChangesView changes
    property bool reducedMotion: false
    // the row can be seen (the list is open): only then does the sweep move
    property bool animate: false

    readonly property bool done: status === "completed" || status === "cancelled"
    readonly property color textColor: done || interrupted ? theme.muted : theme.text

    objectName: "todoRow"
    implicitHeight: Math.max(24, layout.implicitHeight + 12)
    Accessible.role: Accessible.ListItem
    Accessible.name: accessibleName

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
            HoverHandler { id: filesHover; cursorShape: Qt.PointingHandCursor }
            TapHandler { onTapped: row.changes.ask(row.content) }
        }
    }
}
