pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The host connection's state, shown without blocking the window (Main.qml makes it
// while `app.connection.shown`).
Rectangle {
    id: banner

    required property AppViews app
    required property Theme theme

    readonly property string state_: app.connection.state
    implicitHeight: layout.implicitHeight + 16
    color: state_ === "failed" ? theme.noticeBackground : theme.surface
    Accessible.role: state_ === "failed" ? Accessible.AlertMessage : Accessible.StatusBar
    Accessible.name: connectionText.text

    // Retry by keyboard too
    Shortcut {
        id: retryShortcut
        sequence: "Ctrl+R"
        enabled: banner.state_ === "failed"
        onActivated: banner.app.connection.retry()
    }

    RowLayout {
        id: layout
        anchors.fill: parent
        anchors.margins: 8
        spacing: 10

        // with reduced motion the words alone say it
        BusyIndicator {
            visible: banner.state_ !== "failed" && !banner.app.dock.reducedMotion
            running: banner.visible && banner.state_ !== "failed" && !banner.app.dock.reducedMotion
            implicitWidth: 20
            implicitHeight: 20
            Accessible.ignored: !visible  // the words say it; hidden, it is not there
        }
        Text {
            id: connectionText
            objectName: "connectionText"
            Layout.fillWidth: true
            text: banner.state_ === "starting" ? qsTr("Starting the host…")
                : banner.state_ === "reconnecting" ? qsTr("Reconnecting…")
                : qsTr("The host failed to start.") + "\n" + banner.app.connection.error
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: banner.state_ === "failed" ? banner.theme.text : banner.theme.muted
        }
        NibButton {
            objectName: "retryButton"
            visible: banner.state_ === "failed"
            text: qsTr("Retry")
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Start the host again (%1)").arg(retryShortcut.nativeText)
            onClicked: banner.app.connection.retry()
        }
    }
}
