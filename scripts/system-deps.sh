# Sourced by scripts/env.sh: the Debian packages Qt needs for a window on X11 (xcb) and
# for the OpenGL tests under Xvfb with Mesa, openbox and xdotool for the dialog tests under a
# window manager, and OpenSSH (client and server) for the
# remote-session tests. Installed only when missing, and only where we may (root with
# apt-get); elsewhere a note says what to install.
NIB_DEBIAN_PACKAGES="dbus xvfb xauth libgl1-mesa-dri libegl1 libxkbcommon-x11-0 libxcb-cursor0 \
libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0 libxcb-xkb1 \
fonts-dejavu-core openssh-client openssh-server openbox xdotool"
if command -v dpkg >/dev/null 2>&1; then
  missing=""
  for pkg in $NIB_DEBIAN_PACKAGES; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
  done
  if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "installing Debian packages:$missing"
      if ! { apt-get update -qq >/dev/null &&
             DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; }; then
        echo "note: could not install them; the OpenGL and ssh tests will be skipped" >&2
      fi
    else
      echo "note: these Debian packages are missing (the OpenGL and ssh tests will be skipped):$missing" >&2
    fi
  fi
fi
