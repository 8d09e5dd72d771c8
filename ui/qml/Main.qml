pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

ApplicationWindow {
    id: window

    required property MainController controller
    readonly property alias composer: composer

    width: 1100
    height: 760
    minimumWidth: 640
    minimumHeight: 420
    visible: true
    title: controller.currentTitle ? controller.currentTitle + " — Nib Desktop" : "Nib Desktop"
    color: theme.window

    Theme { id: theme; objectName: "theme" }

    RowLayout {
        anchors.fill: parent
        spacing: 0

        SessionsSidebar {
            Layout.preferredWidth: 250
            Layout.fillHeight: true
            controller: window.controller
            theme: theme
        }

        Rectangle {
            Layout.preferredWidth: 1
            Layout.fillHeight: true
            color: theme.divider
        }

        ColumnLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: 0

            ConnectionBanner {
                Layout.fillWidth: true
                controller: window.controller
                theme: theme
            }

            NoticeBar {
                Layout.fillWidth: true
                controller: window.controller
                theme: theme
            }

            Transcript {
                Layout.fillWidth: true
                Layout.fillHeight: true
                controller: window.controller
                theme: theme
            }

            Composer {
                id: composer
                objectName: "composer"
                Layout.fillWidth: true
                Layout.margins: 12
                controller: window.controller
                theme: theme
                maxDockListHeight: Math.min(window.height / 3, 12 * 30)
            }
        }
    }
}
