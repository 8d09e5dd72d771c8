pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls

// The whole of a text cut short (elided) by a narrow window, as a tooltip on hover. Put
// it inside the Text or Label: `FullTextTip { target: parent }`.
Item {
    id: tip

    required property var target  // a Text or a Label

    objectName: "fullTextTip"
    readonly property bool cut: tip.target.truncated
    readonly property string full: tip.target.text
    anchors.fill: parent
    HoverHandler { id: hover }
    ToolTip.visible: tip.cut && hover.hovered
    ToolTip.text: tip.full
    ToolTip.delay: 400
}
