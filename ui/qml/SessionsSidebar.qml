pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The sessions, newest first. With focus in the list, Up and Down show the previous and
// next session, Enter goes back to the input, Delete asks to delete the session shown.
Rectangle {
    id: sidebar

    required property AppViews app
    required property Theme theme
    // the window's shortcuts as this platform writes them: new, fork, delete, previous, next
    required property var keys

    readonly property alias list: sessionList

    // the user is done here (a menu closed, Enter pressed): focus goes back
    signal done()
    // the dialogs the window owns
    signal deleteAsked()
    signal toolsAsked()
    signal remoteAsked()
    signal attemptAsked()  // one task tried by several agents (section 18)
    signal agentAsked(agent: string)
    signal earlierAsked(agent: string)  // its own earlier sessions (section 20)
    signal settingsAsked()

    color: theme.sidebar

    // the New menu, its first entry current: Up, Down and Return choose. It is made the
    // first time it opens (about 10 ms of the first frame otherwise).
    function openNewMenu(): void {
        newMenuLoader.active = true
        const menu = newMenuLoader.item as Menu
        menu.open()
        menu.currentIndex = 0
    }

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
            NibButton {
                objectName: "toolsButton"
                text: qsTr("Tools")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("MCP servers and plugins (%1)").arg(sidebar.keys["tools"])
                Accessible.name: qsTr("Tools")
                onClicked: sidebar.toolsAsked()
            }
            NibButton {
                objectName: "newButton"
                text: qsTr("New")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("New agent session (%1); other kinds and agents in the menu (%2)")
                              .arg(sidebar.keys["new"]).arg(sidebar.keys["newMenu"])
                Accessible.name: qsTr("New session")
                onClicked: sidebar.openNewMenu()
                Loader {
                    id: newMenuLoader
                    active: false
                    sourceComponent: Component {
                        Menu {
                            id: newMenu
                            objectName: "newMenu"
                            // as wide as its widest entry ("Ghost cannot start — see why…"),
                            // within the window: an entry is never cut
                            width: {
                                let widest = 200
                                for (let i = 0; i < count; ++i)
                                    widest = Math.max(widest, itemAt(i)?.implicitWidth ?? 0)
                                return Math.min(widest + leftPadding + rightPadding, Overlay.overlay.width - 16)
                            }
                            onClosed: sidebar.done()
                            MenuItem { text: qsTr("Agent session"); onTriggered: sidebar.app.sessions.create("agent") }
                            MenuItem { text: qsTr("Plan session"); onTriggered: sidebar.app.sessions.create("plan") }
                            MenuItem { text: qsTr("Goal session"); onTriggered: sidebar.app.sessions.create("goal") }
                            MenuSeparator {}
                            // a dialog opens once the menu has closed (and given the focus back),
                            // so the dialog keeps the focus it takes
                            MenuItem { text: qsTr("Remote session…"); onTriggered: Qt.callLater(sidebar.remoteAsked) }
                            MenuSeparator { visible: sidebar.app.sessions.agentCount > 0 }
                            // last: the agents' entries below are put before it
                            MenuItem {
                                objectName: "newAttempt"
                                visible: sidebar.app.sessions.agentCount > 0
                                height: visible ? implicitHeight : 0
                                text: qsTr("Try a task with several agents… (%1)").arg(sidebar.keys["attempt"])
                                onTriggered: Qt.callLater(sidebar.attemptAsked)
                            }
                            // one entry per ACP agent configured in settings.json; one that
                            // cannot start says so, and opens the Tools view, which says why
                            Instantiator {
                                model: sidebar.app.sessions.agents
                                delegate: MenuItem {
                                    required property string name
                                    required property string agentState
                                    objectName: "newAgentSession"
                                    text: agentState === "failed" ? qsTr("%1 cannot start — see why…").arg(name)
                                                                  : qsTr("%1 session…").arg(name)
                                    onTriggered: agentState === "failed" ? Qt.callLater(sidebar.toolsAsked)
                                                                         : Qt.callLater(sidebar.agentAsked, name)
                                }
                                onObjectAdded: (index, object) => newMenu.insertItem(newMenu.count - 1, object as MenuItem)
                                onObjectRemoved: (index, object) => newMenu.removeItem(object as MenuItem)
                            }
                            // and its own earlier sessions, opened in Nib (section 20)
                            Instantiator {
                                model: sidebar.app.sessions.agents
                                delegate: MenuItem {
                                    required property string name
                                    required property string agentState
                                    objectName: "newEarlierSessions"
                                    visible: agentState !== "failed"
                                    height: visible ? implicitHeight : 0
                                    text: qsTr("Earlier %1 sessions…").arg(name)
                                    onTriggered: Qt.callLater(sidebar.earlierAsked, name)
                                }
                                // after the agents' new sessions, which are added in the same turn
                                onObjectAdded: (index, object) => Qt.callLater(() => newMenu.insertItem(newMenu.count - 1, object as MenuItem))
                                onObjectRemoved: (index, object) => newMenu.removeItem(object as MenuItem)
                            }
                        }
                    }
                }
            }
        }

        // the last run's list, drawn while the host starts; its own replaces it
        Text {
            objectName: "cachedNote"
            Layout.fillWidth: true
            visible: sidebar.app.sessions.cached
            text: qsTr("Last known sessions — waiting for the host")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: sidebar.theme.muted
            font.pixelSize: 11
        }

        ListView {
            id: sessionList
            objectName: "sessionList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            enabled: !sidebar.app.sessions.cached  // not usable until the host has answered
            opacity: enabled ? 1 : 0.6
            model: sidebar.app.sessions.rows
            spacing: 2
            activeFocusOnTab: true
            keyNavigationEnabled: false  // Up and Down switch sessions, below
            highlightMoveDuration: 0
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Sessions")
            ScrollBar.vertical: ScrollBar { focusPolicy: Qt.NoFocus }

            Keys.onUpPressed: sidebar.app.sessions.showAdjacent(-1)
            Keys.onDownPressed: sidebar.app.sessions.showAdjacent(1)
            Keys.onReturnPressed: sidebar.done()
            Keys.onEnterPressed: sidebar.done()
            Keys.onDeletePressed: sidebar.deleteAsked()

            delegate: SessionRow {
                app: sidebar.app
                theme: sidebar.theme
                list: sessionList
            }
        }

        RowLayout {
            Layout.fillWidth: true
            spacing: 4
            NibButton {
                objectName: "forkButton"
                Layout.fillWidth: true
                palette.buttonText: enabled ? sidebar.theme.text : sidebar.theme.disabledText
                text: qsTr("Fork")
                enabled: sidebar.app.sessions.currentId !== "" && sidebar.app.sessions.currentReachable
                ToolTip.visible: hovered
                ToolTip.text: qsTr("A copy of this session to try another way (%1)").arg(sidebar.keys["fork"])
                Accessible.name: qsTr("Fork the session")
                onClicked: sidebar.app.sessions.fork()
            }
            NibButton {
                objectName: "settingsButton"
                Layout.fillWidth: true
                text: qsTr("Settings")
                ToolTip.visible: hovered
                ToolTip.text: qsTr("What shows outside the window (%1)").arg(sidebar.keys["settings"])
                Accessible.name: qsTr("Settings")
                onClicked: sidebar.settingsAsked()
            }
            NibButton {
                objectName: "deleteButton"
                Layout.fillWidth: true
                palette.buttonText: enabled ? sidebar.theme.text : sidebar.theme.disabledText
                text: qsTr("Delete")
                enabled: sidebar.app.sessions.currentId !== ""
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Delete this session (%1)").arg(sidebar.keys["delete"])
                Accessible.name: qsTr("Delete the session")
                onClicked: sidebar.deleteAsked()
            }
        }
    }

    // The Tools view: every MCP server (starting, ready with its tools, failed with why)
    // and plugin, live. Made on first use.
}
