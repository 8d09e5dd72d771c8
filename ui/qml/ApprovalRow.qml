pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// A tool call waiting for the user, in the composer: what it is, its arguments, and the
// answers with their keys (the keys themselves are the composer's, window-wide). An ACP
// agent's call offers the agent's own options under its own names; an MCP or plugin
// tool's, Nib's three decisions.
FocusScope {
    id: row
    objectName: "approvalRow"

    required property ApprovalsView approvals
    required property Theme theme
    required property string allowOnceKeys
    required property string allowSessionKeys
    required property string allowAlwaysKeys
    required property string denyKeys
    signal answered(string decision)
    signal picked(string optionId)

    // the agent's options of the call shown ([] for Nib's decisions)
    readonly property var agentOptions: {
        void row.approvals.version
        return row.approvals.options()
    }
    readonly property bool agentAsks: row.agentOptions.length > 0

    function keysOf(key: string): string {
        return key === "allow_once" ? row.allowOnceKeys
             : key === "allow_always" ? row.allowAlwaysKeys
             : key === "deny" ? row.denyKeys : ""
    }
    function optionTip(option: var): string {
        const what = option.kind === "allow_once" ? qsTr("Allow this call once")
                   : option.kind === "allow_always" ? qsTr("The agent's lasting permission, as the agent scopes and keeps it")
                   : option.kind === "reject_always" ? qsTr("Refuse, and the agent remembers the refusal")
                   : qsTr("Refuse this call; the agent is told")
        const keys = row.keysOf(option.key)
        return keys === "" ? what : qsTr("%1 (%2)").arg(what).arg(keys)
    }

    // the call's diff or command scrolled by `pages` of its box (negative: back)
    function scrollAsked(pages: int): void {
        const bar = askedBox.ScrollBar.vertical
        bar.position = Math.max(0, Math.min(1 - bar.size, bar.position + pages * bar.size * 0.9))
    }

    implicitHeight: approvalColumn.implicitHeight + 16
    Accessible.role: Accessible.Grouping
    Accessible.name: qsTr("Approval: %1").arg(row.approvals.tool)

    Rectangle {
        anchors.fill: parent
        color: row.theme.selection
    }
    ColumnLayout {
        id: approvalColumn
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.margins: 8
        spacing: 4
        Text {
            objectName: "approvalTitle"
            Layout.fillWidth: true
            text: row.approvals.agentAsks ? qsTr("The agent asks: %1").arg(row.approvals.tool)
                                          : qsTr("Allow this call? %1").arg(row.approvals.tool)
            textFormat: Text.PlainText
            font.bold: true
            wrapMode: Text.Wrap
            color: row.theme.text
        }
        // what the agent's call would do: its diff (coloured) or its command, scrolled
        // when long; made by the window from escaped text (nib_desktop.state.rich)
        ScrollView {
            id: askedBox
            visible: row.approvals.detailHtml.length > 0
            Layout.fillWidth: true
            // at most a fifth of a small window: the transcript keeps its room
            Layout.preferredHeight: Math.min(askedText.implicitHeight, 220, Math.max(60, row.Window.height / 5))
            clip: true
            TextEdit {
                id: askedText
                objectName: "approvalDetail"
                width: askedBox.availableWidth
                text: row.approvals.detailHtml
                textFormat: TextEdit.RichText
                // a plan to approve reads as prose; a diff or a command as code
                font.family: row.approvals.detailMarkdown ? askedBox.font.family : "monospace"
                font.pixelSize: row.approvals.detailMarkdown ? 13 : 12
                color: row.theme.text
                readOnly: true
                selectByMouse: true
                activeFocusOnTab: false
                wrapMode: TextEdit.WrapAnywhere
                selectionColor: row.theme.selection
                selectedTextColor: row.theme.text
                Accessible.role: Accessible.StaticText
                Accessible.name: qsTr("What it would do: %1").arg(getText(0, length))
            }
        }
        // what is below the box's edge, said, and the keys that scroll it from anywhere
        Label {
            objectName: "approvalMore"
            readonly property real shownPart: askedBox.ScrollBar.vertical.position + askedBox.ScrollBar.vertical.size
            readonly property int below: Math.ceil(askedText.implicitHeight * (1 - shownPart)
                                                   / Math.max(1, askedLines.lineSpacing) - 0.2)
            visible: askedBox.visible && below > 0
            text: (below === 1 ? qsTr("1 more line below") : qsTr("%1 more lines below").arg(below))
                  + qsTr(" · Alt+PgDn scrolls, Alt+PgUp back")
            font.pixelSize: 11
            color: row.theme.muted
            FontMetrics { id: askedLines; font: askedText.font }
        }
        Shortcut {
            sequence: "Alt+PgDown"
            enabled: askedBox.visible
            context: Qt.WindowShortcut
            onActivated: row.scrollAsked(1)
        }
        Shortcut {
            sequence: "Alt+PgUp"
            enabled: askedBox.visible
            context: Qt.WindowShortcut
            onActivated: row.scrollAsked(-1)
        }
        Text {
            objectName: "approvalArguments"
            visible: !askedBox.visible
            Layout.fillWidth: true
            text: row.approvals.arguments
            textFormat: Text.PlainText
            font.family: "monospace"
            font.pixelSize: 12
            wrapMode: Text.WrapAnywhere
            maximumLineCount: 6
            elide: Text.ElideRight
            FullTextTip { target: parent }
            color: row.theme.text
            Accessible.role: Accessible.StaticText
            Accessible.name: qsTr("Arguments: %1").arg(text)
        }
        // an ACP agent's own options, under its own names; one too long for the row is
        // as wide as the row, its name cut short (whole in its tooltip and for a reader)
        Flow {
            id: options
            Layout.fillWidth: true
            visible: row.agentAsks
            spacing: 6
            Repeater {
                model: row.agentOptions
                delegate: NibButton {
                    required property var modelData
                    objectName: "agentOption_" + modelData.optionId
                    width: Math.min(implicitWidth, options.width)
                    text: modelData.name
                    primary: modelData.primary  // once: never the lasting one
                    palette.buttonText: row.theme.text
                    activeFocusOnTab: true
                    ToolTip.visible: hovered || activeFocus
                    ToolTip.text: implicitWidth > options.width ? qsTr("%1: %2").arg(modelData.name).arg(row.optionTip(modelData))
                                                                 : row.optionTip(modelData)
                    Accessible.name: modelData.name
                    Accessible.description: ToolTip.text
                    onClicked: row.picked(modelData.optionId)
                }
            }
            Label {
                objectName: "agentOptionKeys"
                text: row.agentOptions.filter(o => o.key !== "")
                      .map(o => qsTr("%1 %2").arg(row.keysOf(o.key)).arg(o.name)).join(" · ")
                width: Math.min(implicitWidth, options.width)
                wrapMode: Text.Wrap
                height: implicitHeight
                color: row.theme.muted
                font.pixelSize: 11
            }
        }
        RowLayout {
            visible: !row.agentAsks
            spacing: 6
            NibButton {
                objectName: "allowOnceButton"
                text: qsTr("Allow once")
                primary: true
                palette.buttonText: row.theme.text
                activeFocusOnTab: true
                ToolTip.visible: hovered || activeFocus
                ToolTip.text: qsTr("Allow this call (%1)").arg(row.allowOnceKeys)
                Accessible.name: qsTr("Allow once")
                Accessible.description: ToolTip.text
                onClicked: row.answered("allow_once")
            }
            NibButton {
                objectName: "allowSessionButton"
                text: qsTr("Allow for this session")
                activeFocusOnTab: true
                ToolTip.visible: hovered || activeFocus
                ToolTip.text: qsTr("Nib allows this tool in this session until the host stops (%1)").arg(row.allowSessionKeys)
                Accessible.name: qsTr("Allow for this session")
                Accessible.description: ToolTip.text
                onClicked: row.answered("allow_session")
            }
            NibButton {
                objectName: "denyButton"
                text: qsTr("Deny")
                activeFocusOnTab: true
                ToolTip.visible: hovered || activeFocus
                ToolTip.text: qsTr("Refuse this call; the agent is told (%1)").arg(row.denyKeys)
                Accessible.name: qsTr("Deny")
                Accessible.description: ToolTip.text
                onClicked: row.answered("deny")
            }
            Label {
                Layout.fillWidth: true
                text: qsTr("%1 allow · %2 for the session · %3 deny").arg(row.allowOnceKeys)
                      .arg(row.allowSessionKeys).arg(row.denyKeys)
                elide: Text.ElideRight
                FullTextTip { target: parent }
                color: row.theme.muted
                font.pixelSize: 11
            }
        }
    }
}
