pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

Rectangle {
    id: sidebar

    required property MainController controller
    required property Theme theme

    color: theme.sidebar

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 10
        spacing: 8

        RowLayout {
            Layout.fillWidth: true
            Label {
                Layout.fillWidth: true
                text: qsTr("Sessions")
                font.bold: true
                color: sidebar.theme.text
            }
            Button {
                text: qsTr("New")
                focusPolicy: Qt.NoFocus
                onClicked: newMenu.open()
                Menu {
                    id: newMenu
                    MenuItem { text: qsTr("Agent session"); onTriggered: sidebar.controller.createSession("agent") }
                    MenuItem { text: qsTr("Plan session"); onTriggered: sidebar.controller.createSession("plan") }
                    MenuItem { text: qsTr("Goal session"); onTriggered: sidebar.controller.createSession("goal") }
                    MenuSeparator {}
                    MenuItem { text: qsTr("Attach remote session…"); onTriggered: remoteDialog.open() }
                }
            }
        }

        ListView {
            id: sessionList
            objectName: "sessionList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: sidebar.controller.sessions
            spacing: 2
            ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus }

            delegate: ItemDelegate {
                id: entry
                required property string sessionId
                required property string title
                required property string mode
                required property bool remote
                required property bool running

                width: sessionList.width
                focusPolicy: Qt.NoFocus
                highlighted: sessionId === sidebar.controller.currentSessionId
                onClicked: sidebar.controller.selectSession(sessionId)
                Accessible.name: title + (remote ? ", remote" : "") + (running ? ", running" : "")

                contentItem: RowLayout {
                    spacing: 6
                    Rectangle {
                        visible: entry.running
                        implicitWidth: 8
                        implicitHeight: 8
                        radius: 4
                        color: sidebar.theme.accent
                    }
                    Text {
                        Layout.fillWidth: true
                        text: entry.title
                        textFormat: Text.PlainText
                        elide: Text.ElideRight
                        color: sidebar.theme.text
                    }
                    Text {
                        visible: entry.mode !== "agent"
                        text: entry.mode
                        color: sidebar.theme.muted
                        font.pixelSize: 11
                    }
                    Rectangle {
                        visible: entry.remote
                        implicitWidth: badge.implicitWidth + 8
                        implicitHeight: badge.implicitHeight + 2
                        radius: 3
                        color: "transparent"
                        border.color: badge.color
                        Text {
                            id: badge
                            anchors.centerIn: parent
                            text: qsTr("remote")
                            color: entry.highlighted ? "#FFFFFF" : sidebar.theme.muted
                            font.pixelSize: 10
                        }
                    }
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Button {
                text: qsTr("Fork")
                focusPolicy: Qt.NoFocus
                enabled: sidebar.controller.currentSessionId !== "" && !sidebar.controller.currentRemote
                onClicked: sidebar.controller.forkSession()
            }
            Button {
                text: qsTr("Delete")
                focusPolicy: Qt.NoFocus
                enabled: sidebar.controller.currentSessionId !== ""
                onClicked: confirmDelete.open()
            }
        }
    }

    Dialog {
        id: confirmDelete
        title: qsTr("Delete this session?")
        width: 360
        anchors.centerIn: Overlay.overlay
        modal: true
        standardButtons: Dialog.Ok | Dialog.Cancel
        Label {
            width: parent.width
            text: qsTr("“%1” and its transcript and checklist will be deleted.").arg(sidebar.controller.currentTitle)
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
        }
        onAccepted: sidebar.controller.deleteSession(sidebar.controller.currentSessionId)
    }

    Dialog {
        id: remoteDialog
        title: qsTr("Attach a remote session")
        width: 360
        anchors.centerIn: Overlay.overlay
        modal: true
        standardButtons: Dialog.Ok | Dialog.Cancel
        ColumnLayout {
            TextField { id: endpointField; placeholderText: qsTr("Endpoint, e.g. racp://host") }
            TextField { id: remoteIdField; placeholderText: qsTr("Remote session id") }
        }
        onAccepted: sidebar.controller.attachRemote(endpointField.text, remoteIdField.text)
    }
}
