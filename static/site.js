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
})();
