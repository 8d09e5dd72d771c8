pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Nib

// Above the input: the images pasted into it, to go with the next message (each can be
// dropped): a small thumbnail of each, its name and size.
Flow {
    id: held

    required property ComposerView composer
    required property Theme theme

    objectName: "heldImages"
    visible: repeater.count > 0
    spacing: 6

    Repeater {
        id: repeater
        model: held.composer.images
        delegate: Rectangle {
            id: chip
            required property string label
            required property string source
            required property int index
            objectName: "heldImage"
            implicitWidth: row.implicitWidth + 12
            implicitHeight: 24
            radius: 4
            color: held.theme.window
            border.color: held.theme.divider
            RowLayout {
                id: row
                anchors.centerIn: parent
                spacing: 4
                Image {
                    objectName: "heldImageThumbnail"
                    source: chip.source
                    sourceSize.height: 18
                    Layout.preferredHeight: 18
                    Layout.preferredWidth: Math.min(32, implicitWidth)
                    fillMode: Image.PreserveAspectFit
                    asynchronous: true
                    Accessible.ignored: true
                }
                Text {
                    text: chip.label
                    textFormat: Text.PlainText
                    color: held.theme.text
                    font.pixelSize: 12
                }
                NibToolButton {
                    text: "✕"
                    font.pixelSize: 11
                    padding: 2
                    Accessible.name: qsTr("Do not send %1").arg(chip.label)
                    onClicked: held.composer.dropImage(chip.index)
                }
            }
        }
    }
}
