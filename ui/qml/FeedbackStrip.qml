pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// Under the dock's list: the user's asks on the plan, not sent yet (each can be dropped),
// the words of a comment or a new step being written, Send and Discard. Nothing here
// changes the checklist: Send gives the agent one message, and its next plan is the list.
Item {
    id: strip

    required property FeedbackView feedback
    required property Theme theme
    // the list has the keyboard: its keys are shown
    property bool listFocused: false
    property string entering: ""  // "comment" or "add" while words are asked for
    property int row: -1
    property string step: ""

    // the words were given or given up: focus goes back where it came from
    signal finished()

    function ask(kind: string, at: int, content: string): void {
        strip.entering = kind
        strip.row = at
        strip.step = content
        words.text = ""
        words.forceActiveFocus()
    }

    function done(keep: bool): void {
        if (keep && strip.entering === "comment")
            strip.feedback.comment(strip.row, words.text)
        else if (keep)
            strip.feedback.add(strip.row, words.text)
        strip.entering = ""
        strip.finished()
    }

    objectName: "feedbackStrip"
    visible: feedback.possible && (feedback.count > 0 || entering !== "" || listFocused)
    implicitHeight: visible ? column.implicitHeight + 8 : 0

    ColumnLayout {
        id: column
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.top: parent.top
        anchors.margins: 4
        anchors.leftMargin: 10
        spacing: 2

        Repeater {
            model: strip.feedback.asks
            delegate: RowLayout {
                id: asked
                required property string said
                required property string stale  // why it will not be sent, "" while it fits
                required property int index
                Layout.fillWidth: true
                Text {
                    objectName: "askText"
                    Layout.fillWidth: true
                    text: asked.stale === "" ? "• " + asked.said
                                             : qsTr("• %1 · not sent: %2").arg(asked.said).arg(asked.stale)
                    textFormat: Text.PlainText
                    wrapMode: Text.Wrap
                    color: asked.stale === "" ? strip.theme.text : strip.theme.muted
                    font.strikeout: asked.stale !== ""
                    font.pixelSize: 12
                }
                NibToolButton {
                    text: "✕"
                    font.pixelSize: 11
                    padding: 2
                    Accessible.name: qsTr("Drop this ask: %1").arg(asked.said)
                    onClicked: strip.feedback.drop(asked.index)
                }
            }
        }

        TextField {
            id: words
            objectName: "feedbackWords"
            Layout.fillWidth: true
            visible: strip.entering !== ""
            placeholderText: strip.entering === "comment"
                ? qsTr("Your comment on “%1”, then Enter").arg(strip.step)
                : qsTr("The step to add after “%1”, then Enter").arg(strip.step)
            Accessible.name: placeholderText
            Keys.onReturnPressed: strip.done(true)
            Keys.onEnterPressed: strip.done(true)
            Keys.onEscapePressed: strip.done(false)
        }

        RowLayout {
            Layout.fillWidth: true
            visible: strip.feedback.count > 0 || strip.listFocused
            Text {
                objectName: "feedbackKeys"
                Layout.fillWidth: true
                text: strip.listFocused
                    ? qsTr("C comment · S skip · Alt+↑/↓ move · A add a step · Ctrl+Enter send")
                    : qsTr("Your asks go to the agent, which writes the new list")
                textFormat: Text.PlainText
                elide: Text.ElideRight
                color: strip.theme.muted
                font.pixelSize: 11
            }
            NibButton {
                objectName: "feedbackSend"
                visible: strip.feedback.count > 0
                text: strip.feedback.sendText
                primary: true
                onClicked: strip.feedback.send()
            }
            NibButton {
                objectName: "feedbackDiscard"
                visible: strip.feedback.count > 0
                text: qsTr("Discard")
                onClicked: strip.feedback.drop(-1)
            }
        }
    }
}
