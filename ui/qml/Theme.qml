pragma ComponentBehavior: Bound
import QtQuick

// Colours of the dock design, light and dark: the appearance setting chooses, and
// "system" follows the system palette (a dark window colour means the dark scheme).
Item {
    id: theme

    visible: false
    SystemPalette { id: system; colorGroup: SystemPalette.Active }

    property string appearance: "system"
    property bool dark: appearance === "dark" || (appearance !== "light" && system.window.hslLightness < 0.5)
    readonly property color window: dark ? "#1B1D20" : "#FFFFFF"
    readonly property color surface: dark ? "#25272B" : "#F6F7F9"
    readonly property color sidebar: dark ? "#202226" : "#F0F2F5"
    readonly property color text: dark ? "#E6E7EA" : "#1F2328"
    readonly property color muted: dark ? "#A3A8B0" : "#59636E"
    readonly property color accent: dark ? "#6EA8FE" : "#0B63CE"
    readonly property color green: dark ? "#5CC98A" : "#1A7F37"
    readonly property color divider: dark ? "#3A3D42" : "#D8DCE1"
    readonly property color danger: dark ? "#F47067" : "#CF222E"
    readonly property color warning: dark ? "#D29922" : "#875A00"
    readonly property color selection: dark ? "#293346" : "#DCE8FA"
    readonly property color accentText: dark ? "#0B1220" : "#FFFFFF"  // text on an accent fill
    readonly property color noticeBackground: dark ? "#3A2226" : "#FBE9EA"
    readonly property color disabledText: muted  // legible; the missing fill says "disabled"
    // The band differs from the text by at least 1.5:1 on both palettes (toward white on
    // the dark one would be 1.25:1, practically invisible), so it is the accent on both.
    readonly property color sweepBand: accent
    readonly property font bodyFont: Qt.font({ pixelSize: 14 })
    readonly property font monoFont: Qt.font({ family: "monospace", pixelSize: 12 })
    readonly property color userBubble: dark ? "#2D3340" : "#E8F0FC"
    // Ctrl+F's marks behind the text: every occurrence, and the one shown
    readonly property color findMark: dark ? "#4A3D0C" : "#FFF3BF"
    readonly property color findCurrent: dark ? "#7A5C00" : "#FFD43B"

    // The window's palette, which the controls take their colours from: given to the
    // window as one palette (`palette: theme.controls`). Each colour bound on the window's
    // own palette was passed down its whole tree as it was set, about 8 % of its load.
    readonly property Palette controls: Palette {
        window: theme.window
        windowText: theme.text
        base: theme.window
        alternateBase: theme.surface
        text: theme.text
        button: theme.surface
        buttonText: theme.text
        brightText: theme.accentText
        highlight: theme.accent
        highlightedText: theme.accentText
        placeholderText: theme.muted
        toolTipBase: theme.surface
        toolTipText: theme.text
        mid: theme.divider
        disabled.buttonText: theme.disabledText
        disabled.text: theme.disabledText
        disabled.windowText: theme.disabledText
        disabled.button: theme.window
    }
}
