pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// A tool call waiting for the user, in the composer: what it is, its arguments, and the
// answers with their keys (the keys themselves are the composer's, window-wide).
FocusScope {
    id: row
    objectName: "approvalRow"

    required property ApprovalsView approvals
    required property Theme theme
    required property string allowOnceKeys
    required property string allowSessionKeys
    required property string denyKeys
    signal answered(string decision)

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
            text: qsTr("Allow %1 to run?").arg(row.approvals.tool)
            textFormat: Text.PlainText
            font.bold: true
            wrapMode: Text.Wrap
            color: row.theme.text
        }
        Text {
            objectName: "approvalArguments"
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
        RowLayout {
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
                ToolTip.text: qsTr("Allow this tool until the host stops (%1)").arg(row.allowSessionKeys)
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
