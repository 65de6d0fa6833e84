"""axe-core in the browser tests: what a page's serious and critical accessibility violations are.

axe-core (through ``axe-playwright-python``, which ships it) is evaluated in the page through the
browser's debugging protocol, so the page's Content-Security-Policy does not stand in its way and
the page's own scripts are left as they are.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

BLOCKING_IMPACTS = ("serious", "critical")
"""The impacts a page may not have: axe's "minor" and "moderate" are advice, not barriers."""

JUDGED_BY_A_PERSON = frozenset({"color-contrast"})
"""Rules whose undecided results ("needs review") a person must judge: axe cannot compute a
contrast over a gradient, an image or an overlapping element. Every other rule's undecided
result counts as a violation: for those axe is merely careful (a label on an element without a
role is "not well supported" when the element also has text, yet it is never read)."""

_axe = Axe()


def axe_results(page: Page) -> dict[str, list[dict[str, Any]]]:
    """axe-core's violations and undecided results ("incomplete") on ``page`` as it is now."""
    results = _axe.run(page, options={"resultTypes": ["violations", "incomplete"]})
    return {kind: list(results.response[kind]) for kind in ("violations", "incomplete")}


def blocking_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations, and the undecided results of the same impact that
    no person needs to judge."""
    results = axe_results(page)
    undecided = [item for item in results["incomplete"] if item["id"] not in JUDGED_BY_A_PERSON]
    return [
        item for item in results["violations"] + undecided if item["impact"] in BLOCKING_IMPACTS
    ]


def describe_violations(violations: list[dict[str, Any]]) -> str:
    """One line per offending element: the rule, its impact, where, and axe's own summary."""
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            checks = node.get("any", []) + node.get("all", []) + node.get("none", [])
            summary = "; ".join(check["message"] for check in checks)
            lines.append(f"{violation['id']} ({violation['impact']}) at {target}: {summary}")
    return "\n".join(lines)
