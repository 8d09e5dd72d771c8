"""Which scene graph draws the window.

Qt Quick draws through OpenGL by default. Where OpenGL is a software rasterizer (Mesa's
llvmpipe or softpipe in a VM, a remote desktop, a machine without a GPU driver), every
frame redraws the whole window on the CPU: a 60 fps animation costs about a quarter of a
core at 1100x760. Qt's software scene graph repaints only what changed, so there the same
sweep costs about 2 %. The choice is made once, before the first window exists:

- `NIB_SCENE_GRAPH=software` or `=opengl` decides; so does Qt's own `QT_QUICK_BACKEND`
  or `QSG_RHI_BACKEND` when set;
- otherwise a throwaway OpenGL context is asked for its renderer: a software rasterizer,
  or no OpenGL at all, means the software scene graph; a GPU means OpenGL.

Asking costs the first start on a display about 60 ms under Xvfb (loading the GL
libraries and the rasterizer), which a window on the software scene graph never needs
otherwise. So the answer is remembered (QSettings, `graphics/...`) with what it depends
on: the platform and display, Qt's version, the GPU devices (/dev/dri), the drivers'
folders (their modification times change when a driver is installed or upgraded) and the
environment variables that steer Mesa and GLVND. Later starts on the same display ask
again only when one of these changed.
"""

from __future__ import annotations

import logging
import os
import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, qVersion

# the OpenGL classes are imported where the renderer is asked, which a remembered choice
# or a platform that decides by itself (offscreen) never does

if TYPE_CHECKING:
    from PySide6.QtGui import QGuiApplication

log = logging.getLogger(__name__)

GL_RENDERER = 0x1F01
SOFTWARE_RASTERIZERS = r"llvmpipe|softpipe|swrast|software rasterizer|swiftshader|lavapipe"
# platforms that have no OpenGL of their own: Qt picks the software scene graph itself
NO_GPU_PLATFORMS = ("offscreen", "minimal", "vnc", "linuxfb")


# what an OpenGL renderer's answer depends on, besides the display and the platform
GL_ENVIRONMENT = (
    "LIBGL_ALWAYS_SOFTWARE", "GALLIUM_DRIVER", "MESA_LOADER_DRIVER_OVERRIDE",
    "__GLX_VENDOR_LIBRARY_NAME", "__EGL_VENDOR_LIBRARY_FILENAMES", "DRI_PRIME",
)  # fmt: skip
DRIVER_FOLDERS = ("/dev/dri", "/usr/lib/x86_64-linux-gnu/dri", "/usr/lib/aarch64-linux-gnu/dri",
                  "/usr/lib64/dri", "/usr/lib/dri", "/usr/share/glvnd/egl_vendor.d",
                  "/usr/share/glvnd/glx_vendor.d")  # fmt: skip


def display_fingerprint(app: QGuiApplication) -> str:
    """What the renderer behind `app`'s display depends on, in one string."""
    parts = [
        app.platformName(),
        qVersion(),
        os.environ.get("DISPLAY", ""),
        os.environ.get("WAYLAND_DISPLAY", ""),
    ]
    parts += [f"{name}={os.environ.get(name, '')}" for name in GL_ENVIRONMENT]
    for folder in DRIVER_FOLDERS:
        try:
            entries = ",".join(sorted(os.listdir(folder)))
            parts.append(f"{folder}:{os.stat(folder).st_mtime_ns}:{entries}")
        except OSError:
            parts.append(f"{folder}:-")
    return "|".join(parts)


def gl_renderer() -> str | None:
    """The OpenGL renderer's name, or None when no OpenGL context can be made."""
    from PySide6.QtGui import QOffscreenSurface, QOpenGLContext

    context = QOpenGLContext()
    if not context.create():
        return None
    surface = QOffscreenSurface()
    surface.setFormat(context.format())
    surface.create()
    try:
        if not context.makeCurrent(surface):
            return None
        name = context.functions().glGetString(GL_RENDERER)
        context.doneCurrent()
        return str(name or "")
    finally:
        surface.destroy()


def is_software(renderer: str | None) -> bool:
    return renderer is None or re.search(SOFTWARE_RASTERIZERS, renderer, re.IGNORECASE) is not None


def choose_scene_graph(app: QGuiApplication) -> str:
    """Set the scene graph for every window to come; returns "software" or "opengl" (or
    "qt" when the environment or the platform already decides)."""
    wanted = os.environ.get("NIB_SCENE_GRAPH", "").strip().lower()
    qt_decides = os.environ.get("QT_QUICK_BACKEND") or os.environ.get("QSG_RHI_BACKEND")
    if wanted in ("software", "opengl"):
        choice = wanted
    elif qt_decides or app.platformName() in NO_GPU_PLATFORMS:
        return "qt"
    else:
        choice = _remembered_or_asked(app)
    from PySide6.QtQuick import QQuickWindow, QSGRendererInterface

    api = (
        QSGRendererInterface.GraphicsApi.Software
        if choice == "software"
        else QSGRendererInterface.GraphicsApi.OpenGL
    )
    QQuickWindow.setGraphicsApi(api)
    return choice


def _remembered_or_asked(app: QGuiApplication) -> str:
    """The choice made on this display before, or (when what it depends on changed, or
    it never was made) the renderer's answer, remembered for the next start."""
    settings = QSettings()
    fingerprint = display_fingerprint(app)
    known = settings.value("graphics/choice", "", type=str)
    if (
        known in ("software", "opengl")
        and settings.value("graphics/fingerprint", "", type=str) == fingerprint
    ):
        log.info("the %s scene graph draws the window (as on the last start here)", known)
        return str(known)
    renderer = gl_renderer()
    choice = "software" if is_software(renderer) else "opengl"
    log.info("OpenGL renderer %r: the %s scene graph draws the window", renderer, choice)
    settings.setValue("graphics/choice", choice)
    settings.setValue("graphics/renderer", renderer or "")
    settings.setValue("graphics/fingerprint", fingerprint)
    return choice
