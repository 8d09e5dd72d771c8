"""How the offline demo agent reads a task into checklist steps: a numbered or bulleted
list keeps its items (up to MAX_LISTED), markers inside a line split it, prose of three
to eight sentences gives a step per sentence; each step's progressive form, and whether
the user asks it to go on."""

from __future__ import annotations

import re

from host.agent import prompts
from host.protocol.text import LIST_ITEM

MAX_LISTED = 50


MAX_CONTENT = 500  # the contract's limit for an item's text (section 7)


MIN_STEPS = 3


MAX_SENTENCES = 8


_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")


# "…: 1. add the setting 2. theme the sidebar 3. write tests" (markers inside a line)
_INLINE_MARKER = re.compile(r"(?:^|(?<=\s))(\d{1,2})[.)]\s+")


# The verbs the demo writes a progressive form for, each with its form spelled out, so
# every form it shows is a real word. Any other first word ("Step", "On", "Two") gets
# "Working on: …" instead of an invented one.
_GERUNDS = dict(
    pair.split(":")
    for pair in [
        "add:adding",
        "adjust:adjusting",
        "analyse:analysing",
        "analyze:analyzing",
        "apply:applying",
        "ask:asking",
        "audit:auditing",
        "build:building",
        "bump:bumping",
        "cache:caching",
        "change:changing",
        "check:checking",
        "clean:cleaning",
        "clear:clearing",
        "close:closing",
        "collect:collecting",
        "commit:committing",
        "compare:comparing",
        "configure:configuring",
        "confirm:confirming",
        "connect:connecting",
        "convert:converting",
        "copy:copying",
        "create:creating",
        "debug:debugging",
        "decide:deciding",
        "define:defining",
        "delete:deleting",
        "deploy:deploying",
        "describe:describing",
        "design:designing",
        "document:documenting",
        "download:downloading",
        "draft:drafting",
        "drop:dropping",
        "edit:editing",
        "enable:enabling",
        "disable:disabling",
        "ensure:ensuring",
        "estimate:estimating",
        "explain:explaining",
        "export:exporting",
        "extract:extracting",
        "find:finding",
        "finish:finishing",
        "fix:fixing",
        "format:formatting",
        "gather:gathering",
        "generate:generating",
        "handle:handling",
        "implement:implementing",
        "import:importing",
        "improve:improving",
        "install:installing",
        "investigate:investigating",
        "keep:keeping",
        "label:labelling",
        "list:listing",
        "load:loading",
        "log:logging",
        "look:looking",
        "make:making",
        "map:mapping",
        "measure:measuring",
        "merge:merging",
        "migrate:migrating",
        "move:moving",
        "name:naming",
        "open:opening",
        "optimise:optimising",
        "optimize:optimizing",
        "outline:outlining",
        "parse:parsing",
        "patch:patching",
        "pick:picking",
        "plan:planning",
        "polish:polishing",
        "prepare:preparing",
        "print:printing",
        "profile:profiling",
        "publish:publishing",
        "pull:pulling",
        "push:pushing",
        "put:putting",
        "read:reading",
        "rebuild:rebuilding",
        "record:recording",
        "refactor:refactoring",
        "release:releasing",
        "remove:removing",
        "rename:renaming",
        "reorder:reordering",
        "repair:repairing",
        "replace:replacing",
        "report:reporting",
        "reproduce:reproducing",
        "research:researching",
        "reset:resetting",
        "resolve:resolving",
        "restart:restarting",
        "restore:restoring",
        "review:reviewing",
        "revert:reverting",
        "rewrite:rewriting",
        "run:running",
        "save:saving",
        "scan:scanning",
        "search:searching",
        "see:seeing",
        "send:sending",
        "set:setting",
        "ship:shipping",
        "show:showing",
        "simplify:simplifying",
        "sort:sorting",
        "split:splitting",
        "start:starting",
        "stop:stopping",
        "style:styling",
        "summarise:summarising",
        "summarize:summarizing",
        "survey:surveying",
        "switch:switching",
        "tag:tagging",
        "test:testing",
        "theme:theming",
        "tidy:tidying",
        "trace:tracing",
        "translate:translating",
        "trim:trimming",
        "try:trying",
        "tune:tuning",
        "turn:turning",
        "type:typing",
        "undo:undoing",
        "update:updating",
        "upgrade:upgrading",
        "upload:uploading",
        "use:using",
        "validate:validating",
        "verify:verifying",
        "wire:wiring",
        "wrap:wrapping",
        "write:writing",
    ]
)


def _clean(text: str, limit: int = MAX_CONTENT) -> str:
    text = " ".join(text.split()).rstrip(".;:")
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text[:1].upper() + text[1:]


def active_form(content: str) -> str:
    """'Write the migration tests' -> 'Writing the migration tests'; a first word that is
    not one of the demo's verbs -> 'Working on: …'."""
    first, _, rest = content.partition(" ")
    gerund = _GERUNDS.get(first.lower())
    if gerund is None:
        return f"Working on: {content[:1].lower()}{content[1:]}"[:MAX_CONTENT]
    return f"{gerund.capitalize()} {rest}".strip()


def inline_items(text: str) -> list[str]:
    """Items numbered 1, 2, 3… inside running text; [] unless "1." opens the text or
    follows a colon and at least "2." follows (so "Sentence 1. Sentence 2." is prose)."""
    chosen: list[re.Match[str]] = []
    for marker in _INLINE_MARKER.finditer(text):
        number = int(marker.group(1))
        before = text[: marker.start()].rstrip()
        if (not chosen and number == 1 and (not before or before.endswith(":"))) or (
            chosen and number == len(chosen) + 1
        ):
            chosen.append(marker)
    if len(chosen) < 2:
        return []
    ends = [m.start() for m in chosen[1:]] + [len(text)]
    return [text[m.end() : end] for m, end in zip(chosen, ends, strict=True)]


def listed_items(text: str) -> list[str]:
    """The items of a list in the text (numbered or bulleted lines, or numbered inline)."""
    lines = [LIST_ITEM.match(line) for line in text.splitlines()]
    listed = [_clean(match.group(1)) for match in lines if match]
    listed = [item for item in listed if item]
    if len(listed) < 2:
        listed = [item for item in (_clean(part) for part in inline_items(text)) if item]
    return listed if len(listed) >= 2 else []


def plan_steps(text: str) -> list[str]:
    listed = listed_items(text)
    if listed:  # the user's own list, as given: no step nobody asked for
        return listed[:MAX_LISTED]
    sentences = [_clean(part) for part in _SENTENCE_END.split(text.strip())]
    sentences = [part for part in sentences if part]
    if MIN_STEPS <= len(sentences) <= MAX_SENTENCES:
        return sentences
    subject = _clean(text, 80) or "the request"
    subject = subject[:1].lower() + subject[1:]
    return [
        f"Read the request: {subject}",
        "Survey the code it touches",
        "Make the change",
        "Write tests for the change",
        "Run the checks and review the result",
    ]


_CONTINUE = re.compile(r"\s*(continue|go on|carry on|resume|keep going)\b", re.IGNORECASE)


def continues(text: str) -> bool:
    """Whether the user asks to carry on ("continue", "go on", the window's Continue),
    rather than giving a new task."""
    return text == prompts.CONTINUE or (len(text) < 200 and bool(_CONTINUE.match(text)))
