pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The sessions, newest first. With focus in the list, Up and Down show the previous and
// next session, Enter goes back to the input, Delete asks to delete the session shown.
Rectangle {
    id: sidebar

    required property MainController controller
    required property Theme theme
    // the window's shortcuts as this platform writes them: new, fork, delete, previous, next
    required property var keys

    readonly property alias list: sessionList

    // the user is done here (a dialog or menu closed, Enter pressed): focus goes back
    signal done()

    function confirmDelete(): void {
        if (sidebar.controller.currentSessionId !== "")
            sidebar.openDialog(deleteDialogLoader)
    }

    function openTools(): void {
        sidebar.openDialog(toolsDialogLoader)
    }

    function attachRemote(): void {
        sidebar.openDialog(remoteDialogLoader)
    }

    function openDialog(loader: Loader): void {
        loader.active = true
        const dialog = loader.item as Dialog
        dialog.open()
    }

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
                Accessible.role: Accessible.Heading
            }
            Button {
                objectName: "toolsButton"
                text: qsTr("Tools")
                focusPolicy: Qt.NoFocus
                ToolTip.visible: hovered
                ToolTip.text: qsTr("MCP servers and plugins (%1)").arg(sidebar.keys["tools"])
                Accessible.name: qsTr("Tools")
                onClicked: sidebar.openTools()
            }
            Button {
                objectName: "newButton"
                text: qsTr("New")
                focusPolicy: Qt.NoFocus
                ToolTip.visible: hovered
                ToolTip.text: qsTr("New agent session (%1); other kinds in the menu").arg(sidebar.keys["new"])
                Accessible.name: qsTr("New session")
                onClicked: newMenu.open()
                Menu {
                    id: newMenu
                    onClosed: sidebar.done()
                    MenuItem { text: qsTr("Agent session"); onTriggered: sidebar.controller.createSession("agent") }
                    MenuItem { text: qsTr("Plan session"); onTriggered: sidebar.controller.createSession("plan") }
                    MenuItem { text: qsTr("Goal session"); onTriggered: sidebar.controller.createSession("goal") }
                    MenuSeparator {}
                    MenuItem { text: qsTr("Remote session…"); onTriggered: sidebar.openDialog(remoteDialogLoader) }
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
            activeFocusOnTab: true
            keyNavigationEnabled: false  // Up and Down switch sessions, below
            highlightMoveDuration: 0
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Sessions")
            ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus }

            Keys.onUpPressed: sidebar.controller.selectAdjacent(-1)
            Keys.onDownPressed: sidebar.controller.selectAdjacent(1)
            Keys.onReturnPressed: sidebar.done()
            Keys.onEnterPressed: sidebar.done()
            Keys.onDeletePressed: sidebar.confirmDelete()

            delegate: ItemDelegate {
                id: entry
                required property int index
                required property string sessionId
                required property string title
                required property string mode
                required property bool remote
                required property string remoteState
                required property bool running

                objectName: "sessionRow"
                width: sessionList.width
                focusPolicy: Qt.NoFocus
                highlighted: sessionId === sidebar.controller.currentSessionId
                onHighlightedChanged: if (highlighted) sessionList.currentIndex = index
                Component.onCompleted: if (highlighted) sessionList.currentIndex = index
                onClicked: sidebar.controller.selectSession(sessionId)
                Accessible.role: Accessible.ListItem
                Accessible.name: title + (mode !== "agent" ? ", " + mode : "") + (remote ? ", remote" + (remoteState !== "connected" ? " " + remoteState : "") : "")
                                 + (running ? ", running" : "") + (highlighted ? ", shown" : "")

                background: Rectangle {
                    color: entry.highlighted ? sidebar.theme.selection
                         : entry.hovered ? sidebar.theme.surface : "transparent"
                    radius: 4
                    border.width: entry.highlighted && sessionList.activeFocus ? 2 : 0
                    border.color: sidebar.theme.accent
                }

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
                        objectName: "sessionTitle"
                        Layout.fillWidth: true
                        text: entry.title
                        textFormat: Text.PlainText
                        elide: Text.ElideRight
                        color: sidebar.theme.text
                    }
                    Text {
                        objectName: "sessionMode"
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
                            objectName: "remoteBadge"
                            anchors.centerIn: parent
                            text: entry.remoteState === "unreachable" ? qsTr("unreachable")
                                  : entry.remoteState === "connecting" ? qsTr("connecting")
                                  : qsTr("remote")
                            color: entry.remoteState === "unreachable" ? sidebar.theme.danger
                                                                       : sidebar.theme.muted
                            font.pixelSize: 10
                        }
                    }
                }
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Button {
                objectName: "forkButton"
                palette.buttonText: enabled ? sidebar.theme.text : sidebar.theme.disabledText
                text: qsTr("Fork")
                focusPolicy: Qt.NoFocus
                enabled: sidebar.controller.currentSessionId !== "" && !sidebar.controller.currentRemote
                ToolTip.visible: hovered
                ToolTip.text: qsTr("A copy of this session to try another way (%1)").arg(sidebar.keys["fork"])
                Accessible.name: qsTr("Fork the session")
                onClicked: sidebar.controller.forkSession()
            }
            Button {
                objectName: "deleteButton"
                palette.buttonText: enabled ? sidebar.theme.text : sidebar.theme.disabledText
                text: qsTr("Delete")
                focusPolicy: Qt.NoFocus
                enabled: sidebar.controller.currentSessionId !== ""
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Delete this session (%1)").arg(sidebar.keys["delete"])
                Accessible.name: qsTr("Delete the session")
                onClicked: sidebar.confirmDelete()
            }
        }
    }

    // made on first use: nothing of it is built before the first frame
    Loader {
        id: deleteDialogLoader
        active: false
        sourceComponent: Component {
            Dialog {
                id: deleteDialog
                objectName: "deleteDialog"
                title: qsTr("Delete this session?")
                width: Math.max(260, Math.min(400, parent.width - 40))
                parent: Overlay.overlay
                anchors.centerIn: parent
                modal: true
                focus: true
                onAccepted: sidebar.controller.deleteSession(sidebar.controller.currentSessionId)
                onClosed: sidebar.done()

                Label {
                    width: deleteDialog.availableWidth
                    focus: true
                    // laid out only while the dialog is open
                    text: deleteDialog.visible
                          ? qsTr("“%1”, its transcript and its checklist will be deleted. This cannot be undone.")
                            .arg(sidebar.controller.currentTitle)
                          : ""
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    Keys.onReturnPressed: deleteDialog.accept()
                    Keys.onEnterPressed: deleteDialog.accept()
                }

                footer: DialogButtonBox {
                    Button {
                        objectName: "confirmDelete"
                        text: qsTr("Delete")
                        highlighted: true
                        focusPolicy: Qt.NoFocus
                        Accessible.name: text
                        DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
                    }
                    Button {
                        text: qsTr("Cancel")
                        focusPolicy: Qt.NoFocus
                        Accessible.name: text
                        DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                    }
                }
            }
        }
    }

    // The Tools view: every MCP server (starting, ready with its tools, failed with why)
    // and plugin, live. Made on first use.
    Loader {
        id: toolsDialogLoader
        active: false
        sourceComponent: Component {
            Dialog {
                id: toolsDialog
                objectName: "toolsDialog"
                title: qsTr("Tools")
                width: Math.max(300, Math.min(640, parent.width - 40))
                height: Math.max(200, Math.min(520, parent.height - 40))
                parent: Overlay.overlay
                anchors.centerIn: parent
                modal: true
                focus: true
                standardButtons: Dialog.Close
                onOpened: toolList.forceActiveFocus()
                onClosed: sidebar.done()

                ColumnLayout {
                    anchors.fill: parent
                    spacing: 6
                    Text {
                        Layout.fillWidth: true
                        visible: toolList.count === 0
                        text: qsTr("No MCP servers or plugins. Add servers under \"mcpServers\" in settings.json in the data folder.")
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: sidebar.theme.muted
                    }
                    ListView {
                        id: toolList
                        objectName: "toolList"
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        clip: true
                        spacing: 8
                        model: sidebar.controller.toolSources
                        activeFocusOnTab: true
                        keyNavigationEnabled: true
                        Accessible.role: Accessible.List
                        Accessible.name: qsTr("MCP servers and plugins")
                        ScrollBar.vertical: ScrollBar {}
                        delegate: Rectangle {
                            id: source
                            required property int index
                            required property string name
                            required property string kind
                            required property string sourceState
                            required property string error
                            required property string tools
                            required property string accessibleName
                            objectName: "toolSource"
                            width: toolList.width
                            implicitHeight: sourceColumn.implicitHeight + 12
                            radius: 4
                            color: toolList.currentIndex === index && toolList.activeFocus
                                   ? sidebar.theme.selection : sidebar.theme.surface
                            Accessible.role: Accessible.ListItem
                            Accessible.name: accessibleName
                            ColumnLayout {
                                id: sourceColumn
                                anchors.left: parent.left
                                anchors.right: parent.right
                                anchors.top: parent.top
                                anchors.margins: 6
                                spacing: 2
                                RowLayout {
                                    Text {
                                        text: source.name
                                        textFormat: Text.PlainText
                                        font.bold: true
                                        color: sidebar.theme.text
                                    }
                                    Text {
                                        text: source.kind
                                        color: sidebar.theme.muted
                                        font.pixelSize: 11
                                    }
                                    Item { Layout.fillWidth: true }
                                    Text {
                                        objectName: "toolSourceState"
                                        text: source.sourceState === "starting" ? qsTr("starting…") : source.sourceState
                                        color: source.sourceState === "failed" ? sidebar.theme.danger
                                             : source.sourceState === "ready" ? sidebar.theme.green : sidebar.theme.muted
                                        font.pixelSize: 12
                                    }
                                }
                                Text {
                                    Layout.fillWidth: true
                                    visible: source.error !== ""
                                    text: source.error
                                    textFormat: Text.PlainText
                                    wrapMode: Text.Wrap
                                    color: sidebar.theme.danger
                                    font.pixelSize: 12
                                }
                                Text {
                                    Layout.fillWidth: true
                                    visible: source.tools !== ""
                                    text: source.tools
                                    textFormat: Text.PlainText
                                    wrapMode: Text.Wrap
                                    color: sidebar.theme.muted
                                    font.pixelSize: 12
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // made on first use: nothing of it is built before the first frame
    Loader {
        id: remoteDialogLoader
        active: false
        sourceComponent: Component {
            Dialog {
                id: remoteDialog
                objectName: "remoteDialog"
                readonly property string problem: endpointField.text.trim() === "" ? ""
                                                  : sidebar.controller.endpointProblem(endpointField.text)
                readonly property bool ready: endpointField.text.trim() !== "" && problem === ""

                function attach(): void {
                    if (ready)
                        accept()
                }

                title: qsTr("Open a remote session")
                width: Math.max(260, Math.min(460, parent.width - 40))
                parent: Overlay.overlay
                anchors.centerIn: parent
                modal: true
                focus: true
                onOpened: {
                    endpointField.clear()
                    remoteIdField.clear()
                    sidebar.controller.set_remote_choices_cleared()
                    endpointField.forceActiveFocus()
                }
                onAccepted: sidebar.controller.attachRemote(endpointField.text.trim(), remoteIdField.text.trim())
                onClosed: sidebar.done()

                ColumnLayout {
                    anchors.left: parent.left
                    anchors.right: parent.right
                    spacing: 6
                    Label {
                        text: qsTr("Remote host")
                        color: sidebar.theme.text
                    }
                    TextField {
                        id: endpointField
                        objectName: "endpointField"
                        Layout.fillWidth: true
                        placeholderText: qsTr("ssh://user@host or unix:/path/to/socket")
                        Accessible.name: qsTr("Remote host")
                        Accessible.description: qsTr("ssh://user@host:port or unix:/path/to/socket")
                        Keys.onReturnPressed: remoteIdField.forceActiveFocus()
                        Keys.onEnterPressed: remoteIdField.forceActiveFocus()
                    }
                    Text {
                        objectName: "endpointProblem"
                        Layout.fillWidth: true
                        visible: remoteDialog.problem !== ""
                        text: remoteDialog.problem
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: sidebar.theme.danger
                        font.pixelSize: 12
                        Accessible.role: Accessible.AlertMessage
                        Accessible.name: text
                    }
                    Label {
                        text: qsTr("Session id on that host")
                        color: sidebar.theme.text
                    }
                    RowLayout {
                        Layout.fillWidth: true
                        TextField {
                            id: remoteIdField
                            objectName: "remoteIdField"
                            Layout.fillWidth: true
                            placeholderText: qsTr("blank: a new session there")
                            Accessible.name: qsTr("Session id on that host")
                            Accessible.description: qsTr("Leave it blank to start a new session on that host")
                            Keys.onReturnPressed: remoteDialog.attach()
                            Keys.onEnterPressed: remoteDialog.attach()
                        }
                        Button {
                            objectName: "listRemoteButton"
                            text: qsTr("Sessions there…")
                            enabled: remoteDialog.ready
                            palette.buttonText: enabled ? sidebar.theme.text : sidebar.theme.disabledText
                            Accessible.name: qsTr("List the sessions on that host")
                            onClicked: sidebar.controller.listRemoteSessions(endpointField.text.trim())
                        }
                    }
                    Text {
                        objectName: "remoteChoicesNote"
                        Layout.fillWidth: true
                        visible: text !== ""
                        text: sidebar.controller.remoteChoicesNote
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: sidebar.theme.muted
                        font.pixelSize: 12
                        Accessible.role: Accessible.StaticText
                        Accessible.name: text
                    }
                    ListView {
                        id: choices
                        objectName: "remoteChoices"
                        Layout.fillWidth: true
                        Layout.preferredHeight: Math.min(contentHeight, 160)
                        visible: count > 0
                        clip: true
                        model: sidebar.controller.remoteChoices
                        activeFocusOnTab: true
                        keyNavigationEnabled: true
                        Keys.onReturnPressed: {
                            if (currentIndex < 0 && count > 0)
                                currentIndex = 0
                            if (currentItem)
                                (currentItem as ItemDelegate).clicked()
                        }
                        // the user asked for the list: it takes the focus once it arrives
                        Connections {
                            target: sidebar.controller
                            function onRemoteChoicesChanged(): void {
                                if (choices.count > 0 && remoteDialog.opened) {
                                    choices.currentIndex = 0
                                    choices.forceActiveFocus()
                                }
                            }
                        }
                        Accessible.role: Accessible.List
                        Accessible.name: qsTr("Sessions on that host")
                        delegate: ItemDelegate {
                            id: choice
                            required property string choiceId
                            required property string title
                            required property int index
                            width: choices.width
                            text: title + " · " + choiceId
                            highlighted: choices.currentIndex === index
                            Accessible.name: text
                            onClicked: { remoteIdField.text = choiceId; remoteIdField.forceActiveFocus() }
                        }
                    }
                }

                footer: DialogButtonBox {
                    Button {
                        objectName: "attachButton"
                        palette.buttonText: enabled ? sidebar.theme.text : sidebar.theme.disabledText
                        text: remoteIdField.text.trim() === "" ? qsTr("Create there") : qsTr("Attach")
                        highlighted: true
                        enabled: remoteDialog.ready
                        focusPolicy: Qt.NoFocus
                        Accessible.name: text
                        DialogButtonBox.buttonRole: DialogButtonBox.AcceptRole
                    }
                    Button {
                        text: qsTr("Cancel")
                        focusPolicy: Qt.NoFocus
                        Accessible.name: text
                        DialogButtonBox.buttonRole: DialogButtonBox.RejectRole
                    }
                }
            }
        }
    }
}
