pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import ".."

// One list of the Changes view (its scopes, or a scope's files): the arrow keys and a
// click choose a row, which the view then shows. Only they choose: rows arriving or
// going never move the choice, which is the view's (`chosen`).
ListView {
    id: list

    required property Theme theme
    property int chosen: 0
    signal picked(int index)
    clip: true
    spacing: 2
    activeFocusOnTab: true
    keyNavigationEnabled: false
    highlightMoveDuration: 0
    Component.onCompleted: list.currentIndex = list.chosen
    onChosenChanged: list.currentIndex = list.chosen
    onCountChanged: list.currentIndex = list.chosen
    Keys.onUpPressed: if (list.chosen > 0) list.picked(list.chosen - 1)
    Keys.onDownPressed: if (list.chosen < list.count - 1) list.picked(list.chosen + 1)
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
            onClicked: list.picked(row.index)
        }
    }
}
