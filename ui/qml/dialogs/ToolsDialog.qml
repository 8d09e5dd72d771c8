pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// The Tools view: every MCP server (starting, ready with its tools, failed with why)
// and plugin, live.
Dialog {
    id: toolsDialog

    required property AppViews app
    required property Theme theme
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

    ColumnLayout {
        anchors.fill: parent
        spacing: 6
        // settings.json is read again whenever it changes: no restart after an edit
        RowLayout {
            Layout.fillWidth: true
            Text {
                Layout.fillWidth: true
                text: qsTr("Agents, servers and plugins come from settings.json; changes apply as it is saved.")
                textFormat: Text.PlainText
                wrapMode: Text.Wrap
                color: toolsDialog.theme.muted
                font.pixelSize: 12
            }
            NibButton {
                objectName: "openSettingsButton"
                text: qsTr("Open settings.json")
                onClicked: toolsDialog.app.tools.openSettings()
            }
        }
        Text {
            Layout.fillWidth: true
            visible: toolList.count === 0
            text: qsTr("No MCP servers or plugins. Add servers under \"mcpServers\" in settings.json in the data folder.")
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: toolsDialog.theme.muted
        }
        ListView {
            id: toolList
            objectName: "toolList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 8
            model: toolsDialog.app.tools.sources
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
                       ? toolsDialog.theme.selection : toolsDialog.theme.surface
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
                            color: toolsDialog.theme.text
                        }
                        Text {
                            text: source.kind
                            color: toolsDialog.theme.muted
                            font.pixelSize: 11
                        }
                        Item { Layout.fillWidth: true }
                        Text {
                            objectName: "toolSourceState"
                            text: source.sourceState === "starting" ? qsTr("starting…") : source.sourceState
                            color: source.sourceState === "failed" ? toolsDialog.theme.danger
                                 : source.sourceState === "ready" ? toolsDialog.theme.green : toolsDialog.theme.muted
                            font.pixelSize: 12
                        }
                        // a server: started again now, or disabled / enabled in settings.json
                        NibToolButton {
                            objectName: "retryServerButton"
                            visible: source.kind === "MCP server" && source.sourceState === "failed"
                            text: qsTr("Retry")
                            font.pixelSize: 12
                            Accessible.name: qsTr("Start %1 again").arg(source.name)
                            onClicked: toolsDialog.app.tools.retry(source.name)
                        }
                        NibToolButton {
                            objectName: "disableServerButton"
                            visible: source.kind === "MCP server"
                            text: source.sourceState === "disabled" ? qsTr("Enable") : qsTr("Disable")
                            font.pixelSize: 12
                            Accessible.name: (source.sourceState === "disabled" ? qsTr("Enable %1") : qsTr("Disable %1"))
                                             .arg(source.name)
                            onClicked: toolsDialog.app.tools.setDisabled(source.name, source.sourceState !== "disabled")
                        }
                        NibToolButton {
                            objectName: "fixSettingsButton"
                            visible: source.kind === "settings file"
                            text: qsTr("Open it")
                            font.pixelSize: 12
                            Accessible.name: qsTr("Open settings.json")
                            onClicked: toolsDialog.app.tools.openSettings()
                        }
                    }
                    Text {
                        Layout.fillWidth: true
                        visible: source.error !== ""
                        text: source.error
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: toolsDialog.theme.danger
                        font.pixelSize: 12
                    }
                    Text {
                        Layout.fillWidth: true
                        visible: source.tools !== ""
                        text: source.tools
                        textFormat: Text.PlainText
                        wrapMode: Text.Wrap
                        color: toolsDialog.theme.muted
                        font.pixelSize: 12
                    }
                }
            }
        }
    }
}
