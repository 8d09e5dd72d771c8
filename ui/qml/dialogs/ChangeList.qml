pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import ".."

// One list of the Changes view (its scopes, or a scope's files): the arrow keys and a
// click choose a row, which the view then shows.
ListView {
    id: list

    required property Theme theme
    property int chosen: 0
    signal picked(int index)
    clip: true
    spacing: 2
    activeFocusOnTab: true
    keyNavigationEnabled: true
    currentIndex: chosen
    onCurrentIndexChanged: if (currentIndex !== chosen && currentIndex >= 0) list.picked(currentIndex)
    Accessible.role: Accessible.List
    ScrollBar.vertical: ScrollBar {}
    delegate: Rectangle {
        id: row
        required property int index
        required property string title
        required property string summary
        required property string accessibleName
        width: list.width
        implicitHeight: rowText.implicitHeight + 8
        radius: 3
        color: list.chosen === index ? list.theme.selection : "transparent"
        border.width: list.activeFocus && list.currentIndex === index ? 1 : 0
        border.color: list.theme.accent
        Accessible.role: Accessible.ListItem
        Accessible.name: accessibleName
        Column {
            id: rowText
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.verticalCenter: parent.verticalCenter
            anchors.margins: 4
            Text {
                width: parent.width
                text: row.title
                textFormat: Text.PlainText
                elide: Text.ElideMiddle
                color: list.theme.text
            }
            Text {
                width: parent.width
                text: row.summary
                textFormat: Text.PlainText
                elide: Text.ElideRight
                color: list.theme.muted
                font.pixelSize: 11
            }
        }
        MouseArea {
            anchors.fill: parent
            onClicked: {
                list.currentIndex = row.index
                list.picked(row.index)
            }
        }
    }
}
