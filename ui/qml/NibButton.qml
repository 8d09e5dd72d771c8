pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls

// A button the keyboard reaches: Tab stops on it (a click leaves the focus where it was,
// so clicking Send keeps typing in the input) and a ring shows where the focus is.
Button {
    id: button

    // the default action (Return in a dialog), in bold: a DialogButtonBox resets
    // `highlighted`, so it is a property of its own
    property bool primary: false

    // as wide as its text (not Fusion's 80 px at least), so a narrow window cuts none
    implicitWidth: Math.max(48, implicitContentWidth + leftPadding + rightPadding)
    focusPolicy: Qt.TabFocus
    // a hidden button is out of assistive technology's tree: Qt Quick Controls report it
    // as shown, and nameless
    Accessible.ignored: !visible
    highlighted: primary
    font.bold: primary && enabled
    Keys.onReturnPressed: button.clicked()
    Keys.onEnterPressed: button.clicked()

    FocusRing {
        shown: button.visualFocus
    }
}
