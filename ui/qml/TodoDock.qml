pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib

// The Composer's checklist: one line collapsed, the whole list expanded in its own
// bounded, scrolling box. It takes keyboard focus only when the user opens its History
// view, and gives it back (`finished`) when the view closes.
Item {
    id: dock

    required property DockView model
    required property HistoryView history
    required property AppViews app
    readonly property FeedbackView feedback: app.feedback
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

    // the palette's "Give feedback on the plan": the list opened, the keyboard in it
    function giveFeedback(): void {
        if (!dock.model.expanded)
            dock.model.toggleExpanded()
        Qt.callLater(() => list.forceActiveFocus())
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

    // made by Ctrl+H (the History view opened where no checklist was shown): the focus
    // goes into the view, as `toggleHistory` gives it
    Component.onCompleted: if (dock.history.open) { historyList.currentIndex = 0; historyList.forceActiveFocus() }

    visible: model.shown
    implicitHeight: visible ? column.implicitHeight : 0
    activeFocusOnTab: false

    Column {
        id: column
        width: parent.width

        DockHeader {
            id: header
            width: parent.width
            model: dock.model
            history: dock.history
            theme: dock.theme
            headerHeight: dock.headerHeight
            listShown: dock.listShown
            toggleKeys: dock.toggleKeys
            historyKeys: dock.historyKeys
            onHistoryClosed: dock.closeHistory()
            onHistoryToggled: dock.toggleHistory()
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
                Accessible.ignored: !visible
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
                } else if (event.key === Qt.Key_Home || event.key === Qt.Key_End) {
                    // the first or last step chosen, and shown once the list is laid out
                    currentIndex = event.key === Qt.Key_Home ? 0 : count - 1
                    Qt.callLater(list.showChosen)
                    userScrolled = true
                } else if (!list.feedbackKey(event)) {
                    return
                }
                event.accepted = true
            }
            // Up and Down choose a row; its feedback keys ask the agent for a change
            onActiveFocusChanged: if (activeFocus && (currentIndex < 0 || currentIndex >= count))
                currentIndex = Math.max(0, dock.model.focusRow)
            // Alt+Up/Down move the chosen step here, not to the next session as elsewhere
            Keys.onShortcutOverride: (event) => event.accepted = dock.feedback.possible
                && event.modifiers === Qt.AltModifier
                && (event.key === Qt.Key_Up || event.key === Qt.Key_Down)
            function showChosen(): void {
                forceLayout()
                positionViewAtIndex(currentIndex, currentIndex === 0 ? ListView.Beginning : ListView.End)
            }
            Keys.onUpPressed: (event) => list.arrow(event, -1)
            Keys.onDownPressed: (event) => list.arrow(event, 1)
            function arrow(event: KeyEvent, step: int): void {
                if (event.modifiers & Qt.AltModifier) {
                    if (dock.feedback.possible)
                        dock.feedback.move(currentIndex, step)
                } else {
                    currentIndex = Math.max(0, Math.min(count - 1, currentIndex + step))
                    positionViewAtIndex(currentIndex, ListView.Contain)
                    userScrolled = true
                }
            }
            Keys.onReturnPressed: (event) => list.sendKey(event)
            Keys.onEnterPressed: (event) => list.sendKey(event)
            function sendKey(event: KeyEvent): void {
                event.accepted = (event.modifiers & Qt.ControlModifier) !== 0
                if (event.accepted)
                    dock.feedback.send()
            }
            function feedbackKey(event: KeyEvent): bool {
                const row = list.itemAtIndex(currentIndex) as TodoRow
                if (!dock.feedback.possible || row === null || event.modifiers !== Qt.NoModifier)
                    return false
                if (event.key === Qt.Key_C)
                    row.act("comment")
                else if (event.key === Qt.Key_A || event.key === Qt.Key_Insert)
                    row.act("add")
                else if (event.key === Qt.Key_S || event.key === Qt.Key_Delete)
                    row.act("skip")
                else
                    return false
                return true
            }

            delegate: TodoRow {
                width: list.width
                theme: dock.theme
                changes: dock.app.changes
                feedback: dock.feedback
                current: list.activeFocus && index === list.currentIndex
                reducedMotion: dock.model.reducedMotion
                animate: list.visible && dock.visible
                onWordsAsked: (kind, at, step) => {
                    strip.backToList = list.activeFocus
                    strip.ask(kind, at, step)
                }
            }
        }

        FeedbackStrip {
            id: strip
            property bool backToList: false
            width: parent.width
            feedback: dock.feedback
            theme: dock.theme
            listFocused: list.activeFocus && !dock.history.viewing
            onFinished: backToList ? list.forceActiveFocus() : dock.finished()
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
