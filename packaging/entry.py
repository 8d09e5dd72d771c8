"""The bundle's entry point: one executable that is the app, and with `--host` first the
host process (the supervisor starts the frozen host that way)."""

import sys


def main() -> int:
    if sys.argv[1:2] == ["--host"]:
        import gc

        gc.disable()  # while the host imports, as `python -m host` does
        from host.process import main as host_main

        return host_main(sys.argv[2:])
    from nib_desktop.shell.app import main as app_main

    return app_main()


if __name__ == "__main__":
    sys.exit(main())
