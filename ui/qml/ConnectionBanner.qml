pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The host connection's state, shown without blocking the window.
Rectangle {
    id: banner

    required property MainController controller
    required property Theme theme

    readonly property string state_: controller.connectionState
    visible: state_ !== "ready"
    implicitHeight: visible ? layout.implicitHeight + 16 : 0
    color: state_ === "failed" ? Qt.rgba(0.81, 0.13, 0.18, 0.12) : theme.surface

    RowLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: 8
        spacing: 10

        BusyIndicator {
            visible: banner.state_ !== "failed"
            running: banner.visible && banner.state_ !== "failed"
            implicitWidth: 20
            implicitHeight: 20
        }
        Text {
            objectName: "connectionText"
            Layout.fillWidth: true
            text: banner.state_ === "starting" ? qsTr("Starting the host…")
                : banner.state_ === "reconnecting" ? qsTr("Reconnecting…")
                : qsTr("The host failed to start.") + "\n" + banner.controller.connectionError
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: banner.state_ === "failed" ? banner.theme.danger : banner.theme.muted
        }
        Button {
            objectName: "retryButton"
            visible: banner.state_ === "failed"
            text: qsTr("Retry")
            focusPolicy: Qt.NoFocus
            onClicked: banner.controller.retry()
        }
    }
}
