pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Nib

// The dock's one line: the progress hairline, the glyph, "3 / 5", the current step (its
// sweep while collapsed), Continue, History and the toggle's key. A click toggles the list.
Item {
    id: header
    objectName: "dockHeader"

    required property DockView model
    required property HistoryView history
    required property Theme theme
    required property int headerHeight
    required property bool listShown
    required property string toggleKeys  // the Composer's keys, as the platform writes them
    required property string historyKeys
    signal historyClosed()
    signal historyToggled()

    height: header.headerHeight
    Accessible.role: Accessible.Button
    Accessible.name: header.model.unavailable ? header.model.unavailableText
        : qsTr("Checklist, %1 of %2 done: %3. %4 the list (%5)")
          .arg(header.model.completed).arg(header.model.total).arg(headline.text)
          .arg(header.model.expanded ? qsTr("Collapse") : qsTr("Expand")).arg(header.toggleKeys)
    Accessible.onPressAction: header.model.toggleExpanded()

    // below the row, so its buttons get their own clicks
    MouseArea {
        anchors.fill: parent
        enabled: !header.model.unavailable
        cursorShape: Qt.PointingHandCursor
        onClicked: header.model.toggleExpanded()
    }

    // progress hairline along the top edge: completed / (total - cancelled)
    // inset from the Composer's rounded corners, with round ends
    Rectangle {
        objectName: "progressTrack"
        visible: !header.model.unavailable
        x: 10
        width: parent.width - 20
        height: 3
        radius: 1.5
        color: header.theme.divider
        Rectangle {
            objectName: "progressBar"
            width: parent.width * Math.max(0, Math.min(1, header.model.fraction))
            height: parent.height
            radius: 1.5
            color: header.theme.accent
        }
    }

    RowLayout {
        anchors.fill: parent
        anchors.leftMargin: 10
        anchors.rightMargin: 10
        anchors.topMargin: 3
        spacing: 8

        Text {
            objectName: "headerGlyph"
            visible: !header.model.unavailable
            Layout.preferredWidth: 16
            horizontalAlignment: Text.AlignHCenter
            text: header.history.viewing ? "⟲" : header.model.tone === "done" ? "✓" : "◐"
            color: header.model.tone === "done" ? header.theme.green
                 : header.model.tone === "running" ? header.theme.accent
                 : header.theme.muted
            font.pixelSize: header.model.tone === "done" && !header.history.viewing ? 15 : 14
        }
        Text {
            objectName: "progressCount"
            visible: !header.model.unavailable && !header.model.countInText
            text: header.model.completed + " / " + header.model.total
            color: header.theme.text
            font.features: { "tnum": 1 }
            font.pixelSize: 13
        }
        Text {
            id: headline
            objectName: "currentStep"
            readonly property bool plain: textFormat === Text.PlainText
            Layout.fillWidth: true
            visible: !headerSweep.active
            text: header.model.unavailable ? header.model.unavailableText
                : header.history.viewing ? qsTr("%1 · read-only").arg(header.history.viewLabel)
                : header.model.currentStep
            textFormat: Text.PlainText
            elide: Text.ElideRight
            FullTextTip { target: parent }
            maximumLineCount: 1
            color: header.model.unavailable ? header.theme.muted
                 : header.model.tone === "running" && header.model.reducedMotion ? header.theme.accent
                 : header.theme.text
            font.pixelSize: 13
            Accessible.role: Accessible.StaticText
            Accessible.name: text
        }
        // Collapsed, the running step carries the sweep here (the row is hidden).
        Loader {
            id: headerSweep
            Layout.fillWidth: true
            Layout.preferredWidth: 0
            Layout.preferredHeight: headline.implicitHeight
            visible: active
            active: header.model.tone === "running" && !header.listShown && !header.model.reducedMotion
                    && !header.model.unavailable
            sourceComponent: SweepText {
                id: headSweep
                objectName: "headerSweep"
                singleLine: true
                text: headline.text
                elidedText: headCut.elidedText
                font: headline.font
                color: header.theme.text
                bandColor: header.theme.sweepBand
                sweeping: true
                running: true
                Accessible.role: Accessible.StaticText
                Accessible.name: text
                FullTextTip { target: parent }
                TextMetrics {
                    id: headCut
                    font: headline.font
                    text: headline.text
                    elide: Text.ElideRight
                    elideWidth: Math.max(1, headSweep.width)
                }
            }
        }
        NibToolButton {
            objectName: "continueButton"
            // the dock never takes the focus (ADR 0312): its actions have keys and are in the palette
            focusPolicy: Qt.NoFocus
            visible: header.model.canContinue && !header.history.open
            text: qsTr("Continue")
            font.pixelSize: 12
            implicitHeight: 24
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Carry on from the first unfinished step (Ctrl+Enter in the empty composer)")
            Accessible.name: qsTr("Continue from the first unfinished step")
            onClicked: header.model.continueTurn()
        }
        NibToolButton {
            objectName: "historyButton"
            // the dock never takes the focus (ADR 0312): its actions have keys and are in the palette
            focusPolicy: Qt.NoFocus
            visible: !header.model.unavailable
            text: header.history.viewing ? qsTr("Back to live") : header.history.open ? qsTr("Close history") : qsTr("History")
            font.pixelSize: 12
            implicitHeight: 24
            ToolTip.visible: hovered
            ToolTip.text: header.history.open ? qsTr("Back to the live list (Esc)")
                                                : qsTr("Every revision of this checklist (%1)").arg(header.historyKeys)
            Accessible.name: text
            onClicked: header.history.open ? header.historyClosed() : header.historyToggled()
        }
        Text {
            visible: !header.model.unavailable
            text: header.toggleKeys + " " + (header.model.expanded ? "▴" : "▾")
            color: header.theme.muted
            font.pixelSize: 12
        }
    }
}
