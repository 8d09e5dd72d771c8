pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The Composer's checklist: one line collapsed, the whole list expanded in its own
// bounded, scrolling box. It never takes keyboard focus.
Item {
    id: dock

    required property TodoDockModel model
    required property Theme theme
    required property real maxListHeight

    readonly property int headerHeight: 32
    readonly property alias list: list
    readonly property alias header: header

    visible: model.shown
    implicitHeight: visible ? column.implicitHeight : 0
    activeFocusOnTab: false

    Column {
        id: column
        width: parent.width

        Item {
            id: header
            objectName: "dockHeader"
            width: parent.width
            height: dock.headerHeight

            // progress hairline along the top edge: completed / (total - cancelled)
            Rectangle {
                visible: !dock.model.remote
                width: parent.width
                height: 3
                color: dock.theme.divider
                Rectangle {
                    objectName: "progressBar"
                    width: parent.width * Math.max(0, Math.min(1, dock.model.fraction))
                    height: parent.height
                    color: dock.theme.accent
                }
            }

            RowLayout {
                anchors.fill: parent
                anchors.leftMargin: 10
                anchors.rightMargin: 10
                anchors.topMargin: 3
                spacing: 8

                Text {
                    visible: !dock.model.remote
                    text: dock.model.completed === dock.model.total ? "✓" : "◐"
                    color: dock.model.completed === dock.model.total ? dock.theme.green : dock.theme.accent
                    font.pixelSize: 14
                }
                Text {
                    objectName: "progressCount"
                    visible: !dock.model.remote
                    text: dock.model.completed + " / " + dock.model.total
                    color: dock.theme.text
                    font.features: { "tnum": 1 }
                    font.pixelSize: 13
                }
                Text {
                    objectName: "currentStep"
                    readonly property bool plain: textFormat === Text.PlainText
                    Layout.fillWidth: true
                    text: dock.model.remote ? qsTr("The checklist is not available for remote sessions.")
                                            : dock.model.currentStep
                    textFormat: Text.PlainText
                    elide: Text.ElideRight
                    maximumLineCount: 1
                    color: dock.model.remote ? dock.theme.muted : dock.theme.text
                    font.pixelSize: 13
                }
                Text {
                    visible: !dock.model.remote
                    text: "⌃T " + (dock.model.expanded ? "▴" : "▾")
                    color: dock.theme.muted
                    font.pixelSize: 12
                }
            }

            MouseArea {
                anchors.fill: parent
                enabled: !dock.model.remote
                cursorShape: Qt.PointingHandCursor
                onClicked: dock.model.toggleExpanded()
            }
        }

        ListView {
            id: list
            objectName: "dockList"
            width: parent.width
            visible: dock.model.expanded && !dock.model.remote
            // Delayed: the content height settles as wrapped rows are laid out, and
            // that in turn may create more rows; one pass per event breaks the loop.
            Binding on height {
                value: list.visible ? Math.min(list.contentHeight, dock.maxListHeight) : 0
                delayed: true
            }
            clip: true
            model: dock.model.items
            boundsBehavior: Flickable.StopAtBounds
            activeFocusOnTab: false
            reuseItems: true
            cacheBuffer: 0
            ScrollBar.vertical: ScrollBar {
                objectName: "dockScrollBar"
                focusPolicy: Qt.NoFocus
                policy: list.contentHeight > list.height ? ScrollBar.AsNeeded : ScrollBar.AlwaysOff
            }
            onVisibleChanged: if (visible && dock.model.runningRow >= 0)
                                  positionViewAtIndex(dock.model.runningRow, ListView.Contain)

            delegate: TodoRow {
                width: list.width
                theme: dock.theme
                reducedMotion: dock.model.reducedMotion
            }
        }
    }
}
