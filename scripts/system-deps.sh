# Sourced by scripts/env.sh: the Debian packages this machine needs, for what it is set up
# for (NIB_SETUP): "app", the packages Qt needs for a window on X11 (xcb), its fonts and
# OpenGL, and the ssh client remote sessions use; "test", those and what only the tests
# use: Xvfb and xauth (a private X server), openbox and xdotool (the dialog tests under a
# window manager), dbus (a private session bus) and the OpenSSH server (the remote-session
# tests). Installed only when missing, only where we may (root with apt-get), and said
# first; elsewhere a note says what to install.
NIB_APP_PACKAGES="libgl1-mesa-dri libegl1 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 \
libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1 fonts-dejavu-core \
openssh-client"
NIB_TEST_PACKAGES="dbus xvfb xauth openssh-server openbox xdotool"
if [ "${NIB_SETUP:-app}" = test ]; then
  wanted="$NIB_APP_PACKAGES $NIB_TEST_PACKAGES"
  what="the app and its tests"
else
  wanted="$NIB_APP_PACKAGES"
  what="the app's window"
fi
if command -v dpkg >/dev/null 2>&1; then
  missing=""
  for pkg in $wanted; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
  done
  if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "installing the Debian packages $what needs:$missing"
      if ! { apt-get update -qq >/dev/null &&
             DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; }; then
        echo "note: could not install them (tests that need them are skipped)" >&2
      fi
    else
      echo "note: $what needs these Debian packages, missing here:$missing" >&2
    fi
  fi
fi
