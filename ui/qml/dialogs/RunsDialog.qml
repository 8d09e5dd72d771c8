pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// The attempt's runs side by side (contract section 18's attempts), live: one column per
// run (rows where the window is narrow) with its agent, turn, checklist, changes, usage
// and check. Left and Right move between runs, Return opens the run's session, C
// compares it with the next run in the Changes view, K keeps it (its worktree's merge),
// Delete asks to remove every other run (naming what each would lose), Delete again does.
Dialog {
    id: runsDialog

    required property AppViews app
    required property Theme theme
    readonly property AttemptView attempt: app.attempt
    property var runs: []  // the view's runList(), read again as it changes
    property int current: 0
    // "Remove the other runs": asked first, naming what each would lose
    property string question: ""
    property real tallest: 0  // the runs' columns' height at their tallest since opened
    readonly property int columns: Math.max(1, Math.min(runs.length, Math.floor((width - 24) / 230)))

    objectName: "runsDialog"
    title: runsDialog.attempt.title
    width: Math.max(300, Math.min(1100, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    Connections {
        target: runsDialog.attempt
        function onChanged(): void { runsDialog.runs = runsDialog.attempt.runList() }
    }
    onOpened: {
        runsDialog.question = ""
        runsDialog.tallest = grid.implicitHeight
        runsDialog.runs = runsDialog.attempt.runList()
        runsDialog.attempt.read()
        const shown = runsDialog.runs.findIndex(run => run.shown)
        runsDialog.current = Math.max(0, shown)
        grid.forceActiveFocus()
    }

    function runAt(index: int): var {
        return runsDialog.runs.length > 0 ? runsDialog.runs[(index + runsDialog.runs.length) % runsDialog.runs.length] : null
    }
    function open_(index: int): void {
        const run = runsDialog.runAt(index)
        if (run === null)
            return
        runsDialog.attempt.showRun(run.sessionId)
        runsDialog.close()
    }
    function compareNext(index: int): void {
        const a = runsDialog.runAt(index), b = runsDialog.runAt(index + 1)
        if (a === null || b === null || a.sessionId === b.sessionId)
            return
        runsDialog.close()
        runsDialog.attempt.compare(a.sessionId, b.sessionId)
    }
    function keep(index: int): void {
        const run = runsDialog.runAt(index)
        if (run === null)
            return
        runsDialog.close()
        runsDialog.attempt.keep(run.sessionId)
    }

    ScrollView {
        anchors.fill: parent
        // room for a plan of five steps in each row of columns from the start, and never
        // less while open: a plan arriving does not move the buttons below (a click there
        // would land beside them); a longer one grows it once; past the window's, it scrolls
        implicitHeight: Math.min(Math.max(160, runsDialog.parent.height - 200), 560,
                                 Math.max(runsDialog.tallest, 260 * Math.ceil(runsDialog.runs.length / runsDialog.columns)))
        contentWidth: availableWidth
        GridLayout {
            id: grid
            objectName: "runsGrid"
            width: parent.width
            columns: runsDialog.columns
            columnSpacing: 12
            rowSpacing: 12
            focus: true
            onImplicitHeightChanged: runsDialog.tallest = Math.max(runsDialog.tallest, implicitHeight)
            Keys.onLeftPressed: runsDialog.current = (runsDialog.current + runsDialog.runs.length - 1) % Math.max(1, runsDialog.runs.length)
            Keys.onRightPressed: runsDialog.current = (runsDialog.current + 1) % Math.max(1, runsDialog.runs.length)
            Keys.onReturnPressed: runsDialog.open_(runsDialog.current)
            Keys.onPressed: (event) => {
                if (event.key === Qt.Key_Delete) {  // the others removed, asked first
                    if (runsDialog.question === "")
                        runsDialog.askRemoveOthers()
                    else
                        runsDialog.removeOthers()
                    event.accepted = true
                } else if (event.key === Qt.Key_C && !(event.modifiers & Qt.ControlModifier)) {
                    runsDialog.compareNext(runsDialog.current)
                    event.accepted = true
                } else if (event.key === Qt.Key_K) {
                    runsDialog.keep(runsDialog.current)
                    event.accepted = true
                }
            }
            Repeater {
                // counted, not the list itself: the runs told again update their columns in
                // place instead of making them again at every `changed`
                model: runsDialog.runs.length
                delegate: RunColumn {
                    required property int index
                    Layout.fillWidth: true
                    Layout.alignment: Qt.AlignTop
                    run: runsDialog.runs[index] ?? ({})
                    theme: runsDialog.theme
                    selected: index === runsDialog.current
                    comparable: runsDialog.runs.length > 1
                    onOpenAsked: runsDialog.open_(index)
                    onCompareAsked: runsDialog.compareNext(index)
                    onKeepAsked: runsDialog.keep(index)
                }
            }
        }
    }

    function askRemoveOthers(): void {
        const kept = runsDialog.runAt(runsDialog.current)
        if (kept !== null)
            runsDialog.question = runsDialog.attempt.othersQuestion(kept.sessionId)
    }
    function removeOthers(): void {
        const kept = runsDialog.runAt(runsDialog.current)
        runsDialog.question = ""
        if (kept !== null)
            runsDialog.attempt.removeOthers(kept.sessionId)
    }

    footer: ColumnLayout {
        spacing: 4
        Text {
            objectName: "runsQuestion"
            Layout.fillWidth: true
            Layout.leftMargin: 12
            Layout.rightMargin: 12
            visible: text !== ""
            text: runsDialog.question
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: runsDialog.theme.danger
            Accessible.role: Accessible.AlertMessage
            Accessible.name: text
        }
        DialogButtonBox {
            Layout.fillWidth: true
            NibButton {
                objectName: "stopAllRuns"
                visible: runsDialog.attempt.running && runsDialog.question === ""
                text: qsTr("Stop every run")
                Accessible.name: text
                onClicked: runsDialog.attempt.stopAll()
            }
            NibButton {
                objectName: "removeOtherRuns"
                visible: runsDialog.runs.length > 1
                text: runsDialog.question === "" ? qsTr("Remove the other runs…") : qsTr("Remove them")
                Accessible.name: runsDialog.question === ""
                                 ? qsTr("Remove every run but the selected one") : qsTr("Remove them")
                onClicked: runsDialog.question === "" ? runsDialog.askRemoveOthers() : runsDialog.removeOthers()
            }
            NibButton {
                text: runsDialog.question === "" ? qsTr("Close") : qsTr("Keep them")
                Accessible.name: text
                onClicked: runsDialog.question === "" ? runsDialog.close() : runsDialog.question = ""
            }
        }
    }
}
