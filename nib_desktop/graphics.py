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
"""

from __future__ import annotations

import logging
import os
import re

from PySide6.QtGui import QGuiApplication, QOffscreenSurface, QOpenGLContext
from PySide6.QtQuick import QQuickWindow, QSGRendererInterface

log = logging.getLogger(__name__)

GL_RENDERER = 0x1F01
SOFTWARE_RASTERIZERS = re.compile(
    r"llvmpipe|softpipe|swrast|software rasterizer|swiftshader|lavapipe", re.IGNORECASE
)
# platforms that have no OpenGL of their own: Qt picks the software scene graph itself
NO_GPU_PLATFORMS = ("offscreen", "minimal", "vnc", "linuxfb")


def gl_renderer() -> str | None:
    """The OpenGL renderer's name, or None when no OpenGL context can be made."""
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
    return renderer is None or bool(SOFTWARE_RASTERIZERS.search(renderer))


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
        renderer = gl_renderer()
        choice = "software" if is_software(renderer) else "opengl"
        log.info("OpenGL renderer %r: the %s scene graph draws the window", renderer, choice)
    api = (
        QSGRendererInterface.GraphicsApi.Software
        if choice == "software"
        else QSGRendererInterface.GraphicsApi.OpenGL
    )
    QQuickWindow.setGraphicsApi(api)
    return choice
