pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// Ctrl+Shift+F: every session searched by its title and what was said in it, as typed.
// Up and Down choose a result, Return opens its session at the match (the transcript's
// find on the matched word), Escape closes.
Dialog {
    id: searchDialog

    required property AppViews app
    required property Theme theme
    readonly property LibraryView library: searchDialog.app.library

    function openChosen(): void {
        if (hitList.currentIndex < 0 || hitList.count === 0)
            return
        searchDialog.library.open(hitList.currentIndex)
        searchDialog.close()
    }

    objectName: "searchDialog"
    title: qsTr("Search all sessions")
    width: Math.max(300, Math.min(640, parent.width - 40))
    height: Math.max(200, Math.min(520, parent.height - 60))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    onOpened: {
        queryField.selectAll()
        queryField.forceActiveFocus()
    }

    // the search runs a moment after the last key, not at every one
    Timer {
        id: typing
        interval: 150
        onTriggered: searchDialog.library.search(queryField.text)
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 6
        TextField {
            id: queryField
            objectName: "searchField"
            Layout.fillWidth: true
            placeholderText: qsTr("Words said in a session, or its title")
            Accessible.name: qsTr("Search all sessions")
            Accessible.description: qsTr("Up and Down choose a result, Return opens it, Escape closes")
            onTextEdited: { hitList.currentIndex = 0; typing.restart() }
            Keys.onDownPressed: hitList.currentIndex = Math.min(hitList.currentIndex + 1, hitList.count - 1)
            Keys.onUpPressed: hitList.currentIndex = Math.max(hitList.currentIndex - 1, 0)
            Keys.onReturnPressed: { typing.stop(); searchDialog.openChosen() }
            Keys.onEnterPressed: { typing.stop(); searchDialog.openChosen() }
        }
        Text {
            objectName: "searchNote"
            Layout.fillWidth: true
            visible: text !== ""
            text: searchDialog.library.searching ? qsTr("Searching…") : searchDialog.library.note
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: searchDialog.library.note.startsWith("The search failed") ? searchDialog.theme.danger
                                                                             : searchDialog.theme.muted
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        ListView {
            id: hitList
            objectName: "searchHits"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: searchDialog.library.hits
            activeFocusOnTab: false
            highlightMoveDuration: 0
            boundsBehavior: Flickable.StopAtBounds
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Results")
            ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus }
            delegate: ItemDelegate {
                id: hitRow
                required property int index
                required property string title
                required property string where
                required property string snippetHtml
                required property string accessibleName
                objectName: "searchHit"
                width: hitList.width
                focusPolicy: Qt.NoFocus
                highlighted: ListView.isCurrentItem
                Accessible.role: Accessible.ListItem
                Accessible.name: accessibleName
                onClicked: { hitList.currentIndex = index; searchDialog.openChosen() }
                contentItem: ColumnLayout {
                    spacing: 1
                    RowLayout {
                        Layout.fillWidth: true
                        Text {
                            Layout.fillWidth: true
                            text: hitRow.title
                            textFormat: Text.PlainText
                            elide: Text.ElideRight
                            font.bold: true
                            color: hitRow.highlighted ? searchDialog.theme.accentText : searchDialog.theme.text
                        }
                        Text {
                            text: hitRow.where
                            textFormat: Text.PlainText
                            font.pixelSize: 11
                            color: hitRow.highlighted ? searchDialog.theme.accentText : searchDialog.theme.muted
                        }
                    }
                    // escaped by the view; only its bold around the matched words is markup
                    Text {
                        objectName: "searchSnippet"
                        Layout.fillWidth: true
                        text: hitRow.snippetHtml
                        textFormat: Text.StyledText
                        elide: Text.ElideRight
                        maximumLineCount: 2
                        wrapMode: Text.Wrap
                        font.pixelSize: 12
                        color: hitRow.highlighted ? searchDialog.theme.accentText : searchDialog.theme.text
                    }
                }
            }
        }
    }
}
