pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The Composer's checklist: one line collapsed, the whole list expanded in its own
// bounded, scrolling box. It takes keyboard focus only when the user opens its History
// view, and gives it back (`finished`) when the view closes.
Item {
    id: dock

    required property DockView model
    required property HistoryView history
    required property AppViews app
    required property Theme theme
    required property real maxListHeight
    // the keys of the Composer's shortcuts, as the platform writes them
    required property string toggleKeys
    required property string historyKeys

    readonly property int headerHeight: 32
    readonly property alias list: list
    readonly property alias header: header
    readonly property alias historyList: historyList
    readonly property bool listShown: (model.expanded || history.viewing) && !model.unavailable

    // the History view closed: focus goes back where the user types
    signal finished()

    function toggleHistory(): void {
        if (dock.history.open) {
            dock.closeHistory()
        } else if (!dock.model.unavailable && dock.app.sessions.currentId !== "") {
            dock.app.history.show()
            historyList.currentIndex = 0
            historyList.forceActiveFocus()
        }
    }

    function closeHistory(): void {
        dock.history.close()
        dock.finished()
    }

    function showRevision(revision: int): void {
        dock.history.view(revision)
        list.forceActiveFocus()
    }

    function backToRevisions(): void {
        dock.history.view(0)
        historyList.forceActiveFocus()
    }

    visible: model.shown
    implicitHeight: visible ? column.implicitHeight : 0
    activeFocusOnTab: false

    Column {
        id: column
        width: parent.width

        Item {
            id: header
            objectName: "dockHeader"
            width: parent.width
            height: dock.headerHeight
            Accessible.role: Accessible.Button
            Accessible.name: dock.model.unavailable ? dock.model.unavailableText
                : qsTr("Checklist, %1 of %2 done: %3. %4 the list (%5)")
                  .arg(dock.model.completed).arg(dock.model.total).arg(headline.text)
                  .arg(dock.model.expanded ? qsTr("Collapse") : qsTr("Expand")).arg(dock.toggleKeys)
            Accessible.onPressAction: dock.model.toggleExpanded()

            // below the row, so its buttons get their own clicks
            MouseArea {
                anchors.fill: parent
                enabled: !dock.model.unavailable
                cursorShape: Qt.PointingHandCursor
                onClicked: dock.model.toggleExpanded()
            }

            // progress hairline along the top edge: completed / (total - cancelled)
            // inset from the Composer's rounded corners, with round ends
            Rectangle {
                objectName: "progressTrack"
                visible: !dock.model.unavailable
                x: 10
                width: parent.width - 20
                height: 3
                radius: 1.5
                color: dock.theme.divider
                Rectangle {
                    objectName: "progressBar"
                    width: parent.width * Math.max(0, Math.min(1, dock.model.fraction))
                    height: parent.height
                    radius: 1.5
                    color: dock.theme.accent
                }
            }

            RowLayout {
                anchors.fill: parent
                anchors.leftMargin: 10
                anchors.rightMargin: 10
                anchors.topMargin: 3
                spacing: 8

                Text {
                    objectName: "headerGlyph"
                    visible: !dock.model.unavailable
                    Layout.preferredWidth: 16
                    horizontalAlignment: Text.AlignHCenter
                    text: dock.history.viewing ? "⟲" : dock.model.tone === "done" ? "✓" : "◐"
                    color: dock.model.tone === "done" ? dock.theme.green
                         : dock.model.tone === "running" ? dock.theme.accent
                         : dock.theme.muted
                    font.pixelSize: dock.model.tone === "done" && !dock.history.viewing ? 15 : 14
                }
                Text {
                    objectName: "progressCount"
                    visible: !dock.model.unavailable && !dock.model.countInText
                    text: dock.model.completed + " / " + dock.model.total
                    color: dock.theme.text
                    font.features: { "tnum": 1 }
                    font.pixelSize: 13
                }
                Text {
                    id: headline
                    objectName: "currentStep"
                    readonly property bool plain: textFormat === Text.PlainText
                    Layout.fillWidth: true
                    visible: !headerSweep.active
                    text: dock.model.unavailable ? dock.model.unavailableText
                        : dock.history.viewing ? qsTr("%1 · read-only").arg(dock.history.viewLabel)
                        : dock.model.currentStep
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                    FullTextTip { target: parent }
                    maximumLineCount: 1
                    color: dock.model.unavailable ? dock.theme.muted
                         : dock.model.tone === "running" && dock.model.reducedMotion ? dock.theme.accent
                         : dock.theme.text
                    font.pixelSize: 13
                    Accessible.role: Accessible.StaticText
                    Accessible.name: text
                }
                // Collapsed, the running step carries the sweep here (the row is hidden).
                Loader {
                    id: headerSweep
                    Layout.fillWidth: true
                    Layout.preferredWidth: 0
                    Layout.preferredHeight: headline.implicitHeight
                    visible: active
                    active: dock.model.tone === "running" && !dock.listShown && !dock.model.reducedMotion
                            && !dock.model.unavailable
                    sourceComponent: SweepText {
                        objectName: "headerSweep"
                        singleLine: true
                        text: headline.text
                        font: headline.font
                        color: dock.theme.text
                        bandColor: dock.theme.sweepBand
                        sweeping: true
                        running: true
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                        FullTextTip { target: parent }
                    }
                }
                NibToolButton {
                    objectName: "continueButton"
                    // the dock never takes the focus (ADR 0312): its actions have keys and are in the palette
                    focusPolicy: Qt.NoFocus
                    visible: dock.model.canContinue && !dock.history.open
                    text: qsTr("Continue")
                    font.pixelSize: 12
                    implicitHeight: 24
                    ToolTip.visible: hovered
                    ToolTip.text: qsTr("Carry on from the first unfinished step (Ctrl+Enter in the empty composer)")
                    Accessible.name: qsTr("Continue from the first unfinished step")
                    onClicked: dock.model.continueTurn()
                }
                NibToolButton {
                    objectName: "historyButton"
                    // the dock never takes the focus (ADR 0312): its actions have keys and are in the palette
                    focusPolicy: Qt.NoFocus
                    visible: !dock.model.unavailable
                    text: dock.history.viewing ? qsTr("Back to live") : dock.history.open ? qsTr("Close history") : qsTr("History")
                    font.pixelSize: 12
                    implicitHeight: 24
                    ToolTip.visible: hovered
                    ToolTip.text: dock.history.open ? qsTr("Back to the live list (Esc)")
                                                        : qsTr("Every revision of this checklist (%1)").arg(dock.historyKeys)
                    Accessible.name: text
                    onClicked: dock.history.open ? dock.closeHistory() : dock.toggleHistory()
                }
                Text {
                    visible: !dock.model.unavailable
                    text: dock.toggleKeys + " " + (dock.model.expanded ? "▴" : "▾")
                    color: dock.theme.muted
                    font.pixelSize: 12
                }
            }

        }

        ListView {
            id: list
            objectName: "dockList"
            width: parent.width
            visible: dock.listShown && (!dock.history.open || dock.history.viewing)
            // Delayed: the content height settles as wrapped rows are laid out, and
            // that in turn may create more rows; one pass per event breaks the loop.
            Binding on height {
                value: list.visible ? Math.min(list.contentHeight, dock.maxListHeight) : 0
                delayed: true
            }
            clip: true
            model: dock.model.items
            boundsBehavior: Flickable.StopAtBounds
            activeFocusOnTab: false
            reuseItems: true
            cacheBuffer: 0
            ScrollBar.vertical: ScrollBar {
                objectName: "dockScrollBar"
                focusPolicy: Qt.NoFocus
                policy: list.contentHeight > list.height ? ScrollBar.AsNeeded : ScrollBar.AlwaysOff
            }
            // The running (or first unfinished) step stays in view as the work moves on,
            // unless the user scrolled the list; opening the list again scrolls to it.
            property bool userScrolled: false
            function showFocusRow(): void {
                if (dock.model.focusRow >= 0 && !dock.history.viewing)
                    positionViewAtIndex(dock.model.focusRow, ListView.Contain)
            }
            onVisibleChanged: if (visible) { userScrolled = false; Qt.callLater(showFocusRow) }
            onMovementStarted: userScrolled = true
            Connections {
                target: dock.model
                function onChanged(): void {
                    if (list.visible && !list.userScrolled)
                        Qt.callLater(list.showFocusRow)
                }
            }

            // only while a past revision is shown (the user opened it): Escape returns
            // to the live list, Backspace to the revisions
            Keys.onEscapePressed: dock.closeHistory()
            // reached by F6 too: PgUp/PgDn a page at a time, Home and End either end
            Keys.onPressed: (event) => {
                const page = Math.max(28, height - 28)
                const top = originY
                const bottom = Math.max(top, originY + contentHeight - height)
                if ((event.key === Qt.Key_Backspace || event.key === Qt.Key_Left) && dock.history.viewing) {
                    dock.backToRevisions()
                } else if (event.key === Qt.Key_PageDown) {
                    contentY = Math.min(bottom, contentY + page)
                    userScrolled = true
                } else if (event.key === Qt.Key_PageUp) {
                    contentY = Math.max(top, contentY - page)
                    userScrolled = true
                } else if (event.key === Qt.Key_Home) {
                    contentY = top
                    userScrolled = true
                } else if (event.key === Qt.Key_End) {
                    contentY = bottom
                    userScrolled = true
                } else {
                    return
                }
                event.accepted = true
            }
            Keys.onUpPressed: flick(0, 800)
            Keys.onDownPressed: flick(0, -800)

            delegate: TodoRow {
                width: list.width
                theme: dock.theme
                changes: dock.app.changes
                reducedMotion: dock.model.reducedMotion
                animate: list.visible && dock.visible
            }
        }

        // The History view (HistoryList.qml)
        HistoryList {
            id: historyList
            width: parent.width
            history: dock.history
            theme: dock.theme
            maxListHeight: dock.maxListHeight
            onCloseRequested: dock.closeHistory()
            onRevisionChosen: revision => dock.showRevision(revision)
        }
    }
}
