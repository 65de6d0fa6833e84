"""What a browser context reports while a test drives it: console errors, uncaught exceptions,
and Content-Security-Policy violations, each with the address of the page that reported it.

CSP violations are caught twice, as a page would see them (the ``securitypolicyviolation``
event, reported through a binding the test exposes) and as the console prints them; the event
also catches violations the console leaves out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, ConsoleMessage, Error, Page

_LISTEN_FOR_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportPolicyViolation(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"}` +
      ` at ${event.sourceFile || event.documentURI}:${event.lineNumber}` +
      (event.sample ? ` (${event.sample})` : ""),
  );
});
"""


@dataclass
class ConsoleWatch:
    """Everything wrong that the pages of one context reported, in the order it came."""

    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    @classmethod
    def on(cls, context: BrowserContext) -> ConsoleWatch:
        """Watch every page ``context`` opens from now on."""
        watch = cls()
        context.expose_binding(
            "reportPolicyViolation",
            lambda source, text: watch.violations.append(f"{source['frame'].url}: {text}"),
        )
        context.add_init_script(_LISTEN_FOR_VIOLATIONS)
        context.on("console", watch._console)
        context.on("page", watch._page)
        return watch

    def _console(self, message: ConsoleMessage) -> None:
        where = message.page.url if message.page else "?"
        if "Content Security Policy" in message.text:
            self.violations.append(f"{where}: console: {message.text}")
        elif message.type == "error":
            self.errors.append(f"{where}: {message.text}")

    def _page(self, page: Page) -> None:
        page.on("pageerror", lambda error: self._uncaught(page, error))

    def _uncaught(self, page: Page, error: Error) -> None:
        self.errors.append(f"{page.url}: uncaught {error.name}: {error.message}")

    def problems(self) -> list[str]:
        return self.violations + self.errors
