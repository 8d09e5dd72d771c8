pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The composer's last row: the session's kind (mode, or agent and folder), a remote
// session's host, approvals waiting in other sessions, what failed of what this session
// uses (its agent, or the tool servers of Nib's own agent), Stop and Send.
RowLayout {
    id: footer

    required property AppViews app
    required property Theme theme
    required property string toolsKeys
    required property bool canSend  // something is typed
    signal sendRequested()

    spacing: 8
    Label {
        // an earlier message being edited: what Enter, Alt+R and Esc do with it
        objectName: "editingWords"
        visible: text !== ""
        text: footer.app.editing.words
        textFormat: Text.PlainText
        elide: Text.ElideRight
        FullTextTip { target: parent }
        Layout.fillWidth: true
        color: footer.theme.warning
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }
    Shortcut {
        // whether the folder goes back to that turn's start with the edited message
        sequence: "Alt+R"
        enabled: footer.app.editing.words !== ""
        onActivated: footer.app.editing.toggleFiles()
    }
    Shortcut {
        // the folder only, as it was before that message: asked first in the Changes view
        sequence: "Alt+F"
        enabled: footer.app.editing.words !== ""
        onActivated: footer.app.editing.filesOnly()
    }
    Label {
        objectName: "sessionKind"
        // an external agent's session names the agent and its folder
        text: footer.app.sessions.currentAgent !== ""
              ? qsTr("%1 · %2").arg(footer.app.sessions.currentAgent).arg(footer.app.sessions.currentFolder)
              : qsTr("Mode: %1").arg(footer.app.sessions.currentMode)
        textFormat: Text.PlainText
        elide: Text.ElideMiddle
        FullTextTip { target: parent }
        // as wide as its words, at most 320 px, narrower (elided) where the window is
        Layout.fillWidth: true
        Layout.minimumWidth: Math.min(implicitWidth, 48)
        Layout.preferredWidth: Math.ceil(implicitWidth)
        Layout.maximumWidth: 320
        color: footer.theme.muted
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: footer.app.sessions.currentAgent !== ""
                         ? qsTr("Agent %1, in %2").arg(footer.app.sessions.currentAgent).arg(footer.app.sessions.currentFolder)
                         : text
    }
    Label {
        // what the agent offers to steer it, as chosen now: mode, model, usage (section 17)
        objectName: "steeringText"
        visible: text !== ""
        text: footer.app.composer.steering
        textFormat: Text.PlainText
        elide: Text.ElideRight
        FullTextTip { target: parent }
        // as wide as its words where the footer has the room, elided where it has not
        // (whole pixels: a width rounded below the words' would elide their last one)
        Layout.fillWidth: true
        Layout.minimumWidth: Math.min(implicitWidth, 48)
        Layout.preferredWidth: Math.ceil(implicitWidth)
        Layout.maximumWidth: Math.ceil(implicitWidth)
        color: footer.theme.muted
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: qsTr("The agent: %1").arg(text)
    }
    Label {
        objectName: "remoteNote"
        Layout.fillWidth: true
        visible: footer.app.sessions.currentRemote
        text: footer.app.sessions.currentRemoteNote
        textFormat: Text.PlainText
        elide: Text.ElideRight
        FullTextTip { target: parent }
        color: footer.app.sessions.currentReachable ? footer.theme.muted : footer.theme.danger
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }
    Label {
        objectName: "approvalsElsewhere"
        visible: footer.app.approvals.elsewhere > 0
        Layout.fillWidth: true
        text: footer.app.approvals.elsewhereText
        textFormat: Text.PlainText
        elide: Text.ElideMiddle
        FullTextTip { target: parent }
        color: footer.theme.warning
        font.pixelSize: 12
        font.underline: elsewhereArea.containsMouse
        Accessible.role: Accessible.Link
        Accessible.name: text
        ToolTip.visible: elsewhereArea.containsMouse && truncated
        ToolTip.text: text
        MouseArea {
            id: elsewhereArea
            anchors.fill: parent
            hoverEnabled: true
            cursorShape: Qt.PointingHandCursor
            onClicked: footer.app.approvals.goToWaiting()
        }
    }
    Label {
        objectName: "toolsFailed"
        visible: footer.app.tools.failed !== ""
        text: footer.app.tools.failed + " · " + footer.toolsKeys
        color: footer.theme.danger
        font.pixelSize: 12
        Accessible.role: Accessible.StaticText
        Accessible.name: text
    }
    Item { Layout.fillWidth: !footer.app.sessions.currentRemote }
    NibButton {
        objectName: "stopButton"
        text: qsTr("Stop")
        visible: footer.app.sessions.currentRunning
        ToolTip.visible: hovered
        ToolTip.text: qsTr("Stop the turn (Esc)")
        Accessible.name: qsTr("Stop the turn")
        onClicked: footer.app.composer.stop()
    }
    NibButton {
        objectName: "sendButton"
        text: qsTr("Send")
        // disabled: muted text and no accent fill (Fusion keeps the enabled colour)
        palette.buttonText: enabled ? footer.theme.text : footer.theme.disabledText
        primary: true
        enabled: footer.canSend && footer.app.sessions.currentReachable
        ToolTip.visible: hovered
        ToolTip.text: footer.app.sessions.currentRunning ? qsTr("Queue it for when this turn completes (Enter)")
                                                          : qsTr("Send (Enter)")
        Accessible.name: qsTr("Send")
        onClicked: footer.sendRequested()
    }
}
