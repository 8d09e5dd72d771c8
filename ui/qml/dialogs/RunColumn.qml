pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import ".."

// One run of an attempt, as the runs' view shows it: its agent, its turn, its checklist's
// progress and its steps (the plans side by side), what it changed, its usage and its check (with the end of its output), and
// what can be done with it. Everything shown is plain text.
Rectangle {
    id: column

    required property var run
    required property Theme theme
    required property bool selected
    required property bool comparable
    signal openAsked()
    signal compareAsked()
    signal keepAsked()

    objectName: "run_" + run.agent
    implicitHeight: body.implicitHeight + 20
    radius: 6
    color: column.theme.surface
    border.width: column.selected ? 2 : 1
    border.color: column.selected ? column.theme.accent : column.theme.divider
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("%1: %2, %3, %4").arg(run.agent).arg(run.turn).arg(run.progress).arg(run.changes)

    ColumnLayout {
        id: body
        anchors.fill: parent
        anchors.margins: 10
        spacing: 4
        Text {
            Layout.fillWidth: true
            text: column.run.agent + (column.run.shown ? qsTr("  (shown)") : "")
            textFormat: Text.PlainText
            font.bold: true
            elide: Text.ElideRight
            color: column.theme.text
        }
        Text {
            objectName: "runTurn"
            Layout.fillWidth: true
            text: column.run.turn
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            maximumLineCount: 3
            elide: Text.ElideRight
            color: column.run.failed ? column.theme.danger : column.theme.text
        }
        ProgressBar {
            Layout.fillWidth: true
            visible: column.run.progress !== "no checklist"
            value: column.run.fraction
            Accessible.name: column.run.progress
        }
        Text {
            objectName: "runProgress"
            text: column.run.progress
            textFormat: Text.PlainText
            color: column.theme.muted
        }
        Repeater {  // its plan, as its dock shows it
            // counted, not the list itself: a new list of as many steps updates the rows
            // in place instead of making them again (a frame's work twice a second a run)
            model: (column.run.steps ?? []).length
            delegate: Text {
                required property int index
                readonly property var modelData: column.run.steps[index] ?? ({ glyph: "", text: "", status: "" })
                objectName: "runStep"
                Layout.fillWidth: true
                text: (modelData.glyph !== "" ? modelData.glyph + " " : "") + modelData.text
                textFormat: Text.PlainText
                elide: Text.ElideRight
                font.pixelSize: 12
                color: modelData.status === "in_progress" ? column.theme.accent
                       : modelData.status === "completed" ? column.theme.green : column.theme.muted
                font.strikeout: modelData.status === "cancelled"
            }
        }
        Text {
            objectName: "runChanges"
            text: column.run.changes
            textFormat: Text.PlainText
            color: column.theme.text
        }
        Text {
            visible: text !== ""
            text: column.run.usage
            textFormat: Text.PlainText
            color: column.theme.muted
        }
        Text {
            objectName: "runCheck"
            visible: text !== ""
            text: column.run.check
            textFormat: Text.PlainText
            color: column.run.checkFailed ? column.theme.danger : column.theme.text
        }
        Text {
            Layout.fillWidth: true
            visible: text !== ""
            text: column.run.checkTail
            textFormat: Text.PlainText
            font.family: "monospace"
            font.pixelSize: 11
            wrapMode: Text.WrapAnywhere
            maximumLineCount: 6
            elide: Text.ElideLeft
            color: column.theme.muted
        }
        Flow {
            Layout.fillWidth: true
            spacing: 6
            NibButton {
                text: qsTr("Open")
                Accessible.name: qsTr("Open %1's session").arg(column.run.agent)
                onClicked: column.openAsked()
            }
            NibButton {
                visible: column.comparable
                text: qsTr("Compare with next")
                Accessible.name: qsTr("Compare %1's run with the next").arg(column.run.agent)
                onClicked: column.compareAsked()
            }
            NibButton {
                objectName: "keepRun"
                text: qsTr("Keep this run")
                primary: true
                Accessible.name: qsTr("Keep %1's run: merge its worktree").arg(column.run.agent)
                onClicked: column.keepAsked()
            }
        }
    }
}
