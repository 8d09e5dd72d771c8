pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls

// A tool button the keyboard reaches, with the same focus ring as NibButton.
ToolButton {
    id: button

    focusPolicy: Qt.TabFocus
    Accessible.ignored: !visible  // hidden: out of assistive technology's tree (NibButton)
    Keys.onReturnPressed: button.clicked()
    Keys.onEnterPressed: button.clicked()

    FocusRing {
        shown: button.visualFocus
    }
}
