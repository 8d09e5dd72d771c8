pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import Nib

// The dock's History view: every revision, newest first, grouped by turn. Up and Down
// move (PgUp/PgDn by a page, Home the newest, End the oldest), Enter shows one
// read-only, F opens the files its interval changed, Escape returns to the live list.
ListView {
    id: historyList
    objectName: "historyList"

    required property HistoryView history
    required property Theme theme
    required property real maxListHeight
    signal closeRequested()
    signal revisionChosen(int revision)

    visible: historyList.history.open && !historyList.history.viewing
    height: visible ? Math.min(Math.max(contentHeight, 28), historyList.maxListHeight) : 0
    clip: true
    model: historyList.history.rows
    boundsBehavior: Flickable.StopAtBounds
    activeFocusOnTab: false
    keyNavigationEnabled: true
    highlightMoveDuration: 0
    Accessible.role: Accessible.List
    Accessible.name: qsTr("Checklist history")
    section.property: "turnLabel"
    section.delegate: Text {
        required property string section
        width: historyList.width
        leftPadding: 10
        topPadding: 4
        text: section
        textFormat: Text.PlainText
        color: historyList.theme.muted
        font.pixelSize: 11
        font.bold: true
        Accessible.role: Accessible.Heading
        Accessible.name: section
    }
    ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus; Accessible.ignored: !visible }
    onCurrentIndexChanged: if (currentIndex === count - 1 && historyList.history.hasMore)
                               historyList.history.loadOlder()
    onAtYEndChanged: if (atYEnd && count > 0 && historyList.history.hasMore)
                         historyList.history.loadOlder()
    // End goes to the oldest revision, loading the pages before it on the way
    property bool toOldest: false
    readonly property int page: Math.max(1, Math.floor(height / 28) - 1)
    onCountChanged: {
        if (!toOldest)
            return
        if (historyList.history.hasMore) {
            historyList.history.loadOlder()
        } else {
            toOldest = false
            currentIndex = count - 1
        }
    }
    Keys.onPressed: (event) => {
        if (event.key === Qt.Key_F && currentIndex >= 0) {  // the revision's files
            historyList.history.openFiles(historyList.history.revisionAt(currentIndex))
        } else if (event.key === Qt.Key_Home) {
            toOldest = false
            currentIndex = 0
        } else if (event.key === Qt.Key_End) {
            currentIndex = count - 1
            toOldest = historyList.history.hasMore
            if (toOldest)
                historyList.history.loadOlder()
        } else if (event.key === Qt.Key_PageDown) {
            currentIndex = Math.min(count - 1, currentIndex + page)
        } else if (event.key === Qt.Key_PageUp) {
            currentIndex = Math.max(0, currentIndex - page)
        } else {
            return
        }
        event.accepted = true
    }
    Keys.onEscapePressed: historyList.closeRequested()
    Keys.onReturnPressed: if (currentIndex >= 0) historyList.revisionChosen(historyList.history.revisionAt(currentIndex))
    Keys.onEnterPressed: if (currentIndex >= 0) historyList.revisionChosen(historyList.history.revisionAt(currentIndex))

    Text {
        anchors.centerIn: parent
        visible: historyList.count === 0
        text: qsTr("Loading the history…")
        color: historyList.theme.muted
        font.pixelSize: 12
    }
    delegate: HistoryEntry {
        list: historyList
        theme: historyList.theme
        onChosen: revision => historyList.revisionChosen(revision)
        onFilesChosen: revision => historyList.history.openFiles(revision)
    }
}
