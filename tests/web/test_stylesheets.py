"""The site's own stylesheets are whole: every block that opens closes.

A brace lost in a merge does not break the page; Chromium reads every later rule as nested
inside the open one (CSS nesting), so the history, replay and statistics styles silently stopped
applying once. Only the braces' balance can tell.
"""

from __future__ import annotations

from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"


def unclosed_blocks(css: str) -> list[int]:
    """The line of every ``{`` without its ``}``, outside comments and strings."""
    opened: list[int] = []
    line, index, quote = 1, 0, ""
    while index < len(css):
        char = css[index]
        if char == "\n":
            line += 1
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif css.startswith("/*", index):
            end = css.find("*/", index + 2)
            end = len(css) if end < 0 else end
            line += css.count("\n", index, end)
            index = end + 1
        elif char in "\"'":
            quote = char
        elif char == "{":
            opened.append(line)
        elif char == "}":
            if not opened:
                return [-line]  # a close with nothing open: shown as minus its line
            opened.pop()
        index += 1
    return opened


def test_the_tool_finds_a_block_left_open() -> None:
    assert unclosed_blocks(".a {\n  color: red;\n\n.b { color: blue; }\n") == [1]
    assert unclosed_blocks('.a { content: "}"; } /* { */') == []


@pytest.mark.parametrize("sheet", sorted(STATIC.rglob("*.css")), ids=lambda path: path.name)
def test_every_block_of_a_stylesheet_closes(sheet: Path) -> None:
    assert unclosed_blocks(sheet.read_text()) == []
