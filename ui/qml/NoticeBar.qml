pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Nib

// The last failed action, in words, until dismissed or replaced; a success (`done`) in
// the plain colour, gone after DONE_MS or when another session is shown. It never takes
// focus.
Rectangle {
    id: bar

    required property AppViews app
    required property Theme theme

    objectName: "noticeBar"
    visible: app.notice.text !== ""
    implicitHeight: visible ? layout.implicitHeight + 12 : 0
    color: app.notice.done ? theme.surface : theme.noticeBackground
    Accessible.role: app.notice.done ? Accessible.StaticText : Accessible.AlertMessage
    Accessible.name: app.notice.text
    Accessible.ignored: !visible  // no alert without words

    readonly property int doneMs: 6000
    Timer {  // restarted by each new success said
        id: doneTimer
        interval: bar.doneMs
        running: bar.app.notice.done && bar.app.notice.text !== ""
        onTriggered: bar.app.notice.dismiss()
    }
    Connections {
        target: bar.app.notice
        function onChanged(): void { if (bar.app.notice.done) doneTimer.restart() }
    }

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
