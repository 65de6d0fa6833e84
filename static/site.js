// Small behaviours of every page, kept in a file: the Content-Security-Policy allows no inline
// script or event handler attribute.
(function () {
  "use strict";
  // Read-only fields holding a link or a token select their whole text on click, for copying.
  document.addEventListener("click", function (event) {
    const field = event.target.closest("input[data-select-on-click]");
    if (field) {
      field.select();
    }
  });

  // The browser's Back to a step htmx pushed (a replay's step, a statistics filter) puts back
  // the page as htmx saved it, style attributes included, and the policy refuses those. The
  // site writes none, but the browser or an extension may have left one (a screenshot's hidden
  // caret), so htmx saves the page without them; they come back at once through the element's
  // style object, which the policy allows.
  document.addEventListener("htmx:beforeHistorySave", function (event) {
    const styled = Array.from(event.detail.historyElt.querySelectorAll("[style]"), (element) => {
      const css = element.style.cssText;
      element.removeAttribute("style");
      return [element, css];
    });
    window.setTimeout(function () {
      for (const [element, css] of styled) {
        if (css) {
          element.style.cssText = css;
        }
      }
    }, 0);
  });
})();
