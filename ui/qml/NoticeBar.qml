pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Nib

// The last failed action, in words, until dismissed or replaced. It never takes focus.
Rectangle {
    id: bar

    required property AppViews app
    required property Theme theme

    objectName: "noticeBar"
    visible: app.notice.text !== ""
    implicitHeight: visible ? layout.implicitHeight + 12 : 0
    color: theme.noticeBackground
    Accessible.role: Accessible.AlertMessage
    Accessible.name: app.notice.text

    RowLayout {
        id: layout
        anchors.fill: parent
        anchors.leftMargin: 12
        anchors.rightMargin: 8
        spacing: 8
        Text {
            objectName: "noticeText"
            Layout.fillWidth: true
            text: bar.app.notice.text
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: bar.theme.text
        }
        NibButton {
            objectName: "dismissNotice"
            text: qsTr("Dismiss")
            Accessible.name: qsTr("Dismiss the message")
            onClicked: bar.app.notice.dismiss()
        }
    }
}
