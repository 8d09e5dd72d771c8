pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// What an agent asks the user to fill in (its elicitation): its words, then its form's
// fields (text, numbers, yes or no, one choice), or the host of a URL it asks to be
// opened (opened only by the button). Return sends, Escape declines; the turn's end
// cancels it. The agent's words are plain text, never rich text.
Dialog {
    id: formDialog

    required property AppViews app
    required property Theme theme
    objectName: "formDialog"
    property var fields: []
    // what the user typed or chose, by field name
    property var values: ({})

    function refresh(): void {
        formDialog.fields = formDialog.app.form.fieldList()
        const made = {}
        for (const field of formDialog.fields) {
            if (field.kind === "boolean")
                made[field.name] = field.value === "true"
            else if (field.kind === "choice")  // what the box shows: its default, else the first
                made[field.name] = field.choices.indexOf(field.value) >= 0 ? field.value : field.choices[0]
            else
                made[field.name] = field.value
        }
        formDialog.values = made
    }
    function send(): void {
        formDialog.app.form.accept(formDialog.values)
    }

    title: formDialog.app.form.url !== "" ? qsTr("The agent asks you to open a page")
                                           : qsTr("The agent asks for some details")
    width: Math.max(280, Math.min(480, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    closePolicy: Popup.NoAutoClose
    onAboutToShow: formDialog.refresh()
    Connections {
        target: formDialog.app.form
        function onChanged(): void {
            if (!formDialog.app.form.waiting)
                formDialog.close()
            else
                formDialog.refresh()
        }
    }

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 6
        Keys.onEscapePressed: formDialog.app.form.decline()
        Label {
            objectName: "formMessage"
            Layout.fillWidth: true
            text: formDialog.app.form.message
            textFormat: Text.PlainText
            wrapMode: Text.Wrap
            color: formDialog.theme.text
        }
        Label {
            objectName: "formUrlHost"
            visible: formDialog.app.form.url !== ""
            Layout.fillWidth: true
            text: qsTr("It opens a page on %1").arg(formDialog.app.form.urlHost)
            textFormat: Text.PlainText
            color: formDialog.theme.muted
        }
        Repeater {
            model: formDialog.fields
            delegate: ColumnLayout {
                id: row
                required property var modelData
                required property int index
                Layout.fillWidth: true
                spacing: 2
                Label {
                    visible: row.modelData.kind !== "boolean"  // a check box says its own
                    text: row.modelData.title
                    textFormat: Text.PlainText
                    color: formDialog.theme.text
                }
                TextField {
                    objectName: "formText_" + row.modelData.name
                    visible: row.modelData.kind === "text" || row.modelData.kind === "number"
                             || row.modelData.kind === "integer"
                    Layout.fillWidth: true
                    focus: row.index === 0
                    text: row.modelData.value
                    placeholderText: row.modelData.description
                    inputMethodHints: row.modelData.kind === "text" ? Qt.ImhNone : Qt.ImhFormattedNumbersOnly
                    Accessible.name: row.modelData.title
                    Accessible.description: row.modelData.description
                    onTextEdited: formDialog.values[row.modelData.name] = text
                    Keys.onReturnPressed: formDialog.send()
                    Keys.onEnterPressed: formDialog.send()
                }
                NibCheckBox {
                    theme: formDialog.theme
                    objectName: "formCheck_" + row.modelData.name
                    visible: row.modelData.kind === "boolean"
                    text: row.modelData.title
                    ToolTip.visible: hovered && row.modelData.description !== ""
                    ToolTip.text: row.modelData.description
                    Accessible.description: row.modelData.description
                    checked: row.modelData.value === "true"
                    Accessible.name: row.modelData.title
                    onToggled: formDialog.values[row.modelData.name] = checked
                    Keys.onReturnPressed: formDialog.send()  // as from a field: Space ticks it
                    Keys.onEnterPressed: formDialog.send()
                }
                ComboBox {
                    id: choice
                    objectName: "formChoice_" + row.modelData.name
                    visible: row.modelData.kind === "choice"
                    Layout.fillWidth: true
                    model: row.modelData.choices
                    currentIndex: Math.max(0, row.modelData.choices.indexOf(row.modelData.value))
                    Accessible.name: row.modelData.title
                    onActivated: formDialog.values[row.modelData.name] = currentText
                    contentItem: Text {
                        leftPadding: 8
                        text: choice.displayText
                        textFormat: Text.PlainText
                        color: formDialog.theme.text
                        verticalAlignment: Text.AlignVCenter
                        elide: Text.ElideRight
                        Accessible.ignored: true
                    }
                }
            }
        }
    }

    footer: DialogButtonBox {
        NibButton {
            objectName: "formOpenUrl"
            visible: formDialog.app.form.url !== ""
            text: qsTr("Open the page")
            Accessible.name: text
            onClicked: formDialog.app.form.openUrl()
        }
        NibButton {
            objectName: "formSend"
            text: formDialog.app.form.url !== "" ? qsTr("Done") : qsTr("Send")
            primary: true
            Accessible.name: text
            onClicked: formDialog.send()
        }
        NibButton {
            objectName: "formDecline"
            text: qsTr("Decline")
            Accessible.name: text
            onClicked: formDialog.app.form.decline()
        }
    }
}
