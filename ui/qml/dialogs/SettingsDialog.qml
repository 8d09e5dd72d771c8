pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib
import ".."

// The window's appearance and motion, and what the app shows outside its window (kept in
// settings.json). Space toggles the focused box, arrows choose, Tab moves on, Escape or
// Return closes.
Dialog {
    id: settingsDialog

    required property AppViews app
    required property Theme theme
    objectName: "settingsDialog"
    title: qsTr("Settings")
    width: Math.max(280, Math.min(460, parent.width - 40))
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    standardButtons: Dialog.Close
    // as a Tab would: the focus shown at once (in the dark palette too), on the
    // appearance chosen (a radio group's focus is where its choice is)
    onOpened: {
        const chosen = [systemBox, lightBox, darkBox].find(box => box.checked) ?? systemBox
        chosen.forceActiveFocus(Qt.TabFocusReason)
        chosen.focusReason = Qt.TabFocusReason  // (kept from the last opening otherwise)
    }

    component Look: RadioButton {
        id: look
        required property string key
        // the circle and its dot drawn in the theme's colours: a clear edge and a solid
        // accent dot on both palettes (Fusion's half-transparent dot was faint in dark)
        indicator: Rectangle {
            objectName: "lookIndicator"
            x: look.leftPadding
            y: (look.height - height) / 2
            implicitWidth: 16
            implicitHeight: 16
            radius: 8
            color: settingsDialog.theme.surface
            border.color: look.checked ? settingsDialog.theme.accent : settingsDialog.theme.muted
            Rectangle {
                anchors.centerIn: parent
                width: 8
                height: 8
                radius: 4
                color: settingsDialog.theme.accent
                visible: look.checked
            }
        }
        Accessible.name: text
        checked: settingsDialog.app.settings.appearance === key
        Keys.onReturnPressed: settingsDialog.close()
        Keys.onEnterPressed: settingsDialog.close()
        onToggled: if (checked) settingsDialog.app.settings.setAppearance(key)
        FocusRing { shown: parent.visualFocus }
    }

    component Choice: NibCheckBox {
        required property string key
        Layout.fillWidth: true
        theme: settingsDialog.theme
        Keys.onReturnPressed: settingsDialog.close()
        Keys.onEnterPressed: settingsDialog.close()
        onToggled: settingsDialog.app.settings.set(key, checked)
    }

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 2
        Label {
            text: qsTr("Appearance")
            font.bold: true
            color: settingsDialog.theme.text
        }
        RowLayout {
            Look { id: systemBox; objectName: "appearanceSystem"; key: "system"; text: qsTr("System") }
            Look { id: lightBox; objectName: "appearanceLight"; key: "light"; text: qsTr("Light") }
            Look { id: darkBox; objectName: "appearanceDark"; key: "dark"; text: qsTr("Dark") }
        }
        Choice {
            objectName: "reducedMotionBox"
            key: "reducedMotion"
            text: qsTr("Reduce motion (no sweep, no animations)")
            checked: settingsDialog.app.settings.reducedMotion
        }
        Label {
            text: qsTr("Outside the window")
            font.bold: true
            color: settingsDialog.theme.text
        }
        Choice {
            id: titleBox
            objectName: "titleProgressBox"
            key: "titleProgress"
            text: qsTr("Progress in the window title")
            checked: settingsDialog.app.settings.titleProgress
        }
        Choice {
            objectName: "badgeBox"
            key: "badge"
            text: qsTr("Badge: sessions waiting for you")
            checked: settingsDialog.app.settings.badge
        }
        Choice {
            objectName: "launcherProgressBox"
            key: "launcherProgress"
            text: qsTr("Checklist progress on the launcher")
            checked: settingsDialog.app.settings.launcherProgress
        }
        Choice {
            objectName: "notificationsBox"
            key: "notifications"
            text: qsTr("Desktop notifications while the window is in the background")
            checked: settingsDialog.app.settings.notifications
        }
        Choice {
            objectName: "attentionBox"
            key: "attention"
            text: qsTr("Ask for attention when a tool call waits")
            checked: settingsDialog.app.settings.attention
        }
    }
}
