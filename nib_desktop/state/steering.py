"""What an ACP agent offers to steer a session (contract section 17), as the window holds
it: plain values, its words already made safe to show."""

from nib_desktop.state.tuples import NamedTuple


class AgentCommand(NamedTuple):
    """One of an agent's own slash commands (section 17)."""

    name: str
    description: str
    hint: str  # what its input is, "" when it takes none or says nothing


class Steering(NamedTuple):
    """What an ACP agent offers to steer one session (section 17), as the window shows it."""

    session_id: str
    mode: str = ""  # the current mode's name, "" without modes
    modes: tuple[tuple[str, str], ...] = ()  # (id, name)
    commands: tuple[AgentCommand, ...] = ()
    usage: str = ""  # "62 % of context · $0.41", "" when not told
    model: str = ""  # the chosen model's name, "" when the agent offers no model option
    models: tuple[tuple[str, str], ...] = ()  # (value, name)
    model_option: str = ""  # the option's id, to set it
    sign_ins: tuple[tuple[str, str], ...] = ()  # its sign-in methods: (id, name)
    images: bool = True  # it takes images in a prompt (True until it says otherwise)
    # its sign-in methods that run in a terminal: (id, the command, the environment added)
    terminals: tuple[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]], ...] = ()
    # the mode (its id) the session was in before its current plan mode: where an
    # approved plan goes on; "" when not known (or not in a plan mode)
    left_for_plan: str = ""

    def words(self) -> str:
        """The composer's line: "Plan mode · Large · 62 % of context · $0.41" (the mode
        named as one, so "Default mode · Default (recommended)" says which is which)."""
        mode = self.mode
        if mode and "mode" not in mode.lower():
            mode = f"{mode} mode"
        return " · ".join(part for part in (mode, self.model, self.usage) if part)


# words in a mode's id or name that say it asks less of the user (more permissive), and
# words that say it asks before acting
_PERMISSIVE = ("bypass", "yolo", "auto", "accept", "full", "danger", "never", "dont", "don't")
_CAREFUL = ("default", "ask", "manual", "read", "normal", "safe")


def in_plan_mode(steering: Steering) -> bool:
    current = mode_id(steering)
    return "plan" in current.lower() or "plan" in steering.mode.lower()


def mode_id(steering: Steering) -> str:
    """The current mode's id ("" without modes)."""
    return next((i for i, name in steering.modes if name == steering.mode), "")


def _care(mode: tuple[str, str]) -> int:
    words = f"{mode[0]} {mode[1]}".lower()
    if any(w in words for w in _PERMISSIVE):
        return 2
    return 0 if any(w in words for w in _CAREFUL) else 1


def plan_exit(steering: Steering) -> tuple[str, str] | None:
    """The mode an approved plan goes on in, (id, name), while the session is in a plan
    mode: the mode the user left for it; where that is not known, the one of the
    agent's other modes that reads as asking the most (never silently a more permissive
    one than the user had). None outside a plan mode."""
    if not in_plan_mode(steering):
        return None
    current = mode_id(steering)
    others = [(i, name) for i, name in steering.modes if i != current and "plan" not in i.lower()]
    left = next((x for x in others if x[0] == steering.left_for_plan), None)
    if left is not None:
        return left
    return min(others, key=_care) if others else None


def remembered(held: Steering | None, told: Steering) -> Steering:
    """`told` with the mode it left for its plan mode: the held one's mode when `told`
    enters a plan mode, kept while it stays in one."""
    if not in_plan_mode(told):
        return told._replace(left_for_plan="")
    if held is None:
        return told
    if in_plan_mode(held):
        return told._replace(left_for_plan=held.left_for_plan)
    return told._replace(left_for_plan=mode_id(held))
