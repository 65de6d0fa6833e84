// The replay viewer's keyboard and slider. Without this file every step is a plain link and
// the slider a form with a Go button; with it (and htmx) only the stage is swapped.
//
// - Left and right arrow keys step back and forward (unless typing in a field).
// - Moving the slider goes to that step at once.
// - After each swap the move list marks the step shown.
(function () {
  "use strict";

  const replay = document.querySelector("[data-replay]");
  if (!replay) {
    return;
  }

  const isTyping = function (target) {
    return target instanceof HTMLElement && target.matches("input, select, textarea");
  };

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) {
      return;
    }
    const which = { ArrowLeft: "[data-replay-prev]", ArrowRight: "[data-replay-next]" }[event.key];
    const link = which && replay.querySelector(which);
    if (link) {
      event.preventDefault();
      link.click();
    }
  });

  replay.addEventListener("change", function (event) {
    if (event.target instanceof HTMLElement && event.target.matches("[data-replay-slider]")) {
      event.target.form.requestSubmit();
    }
  });

  const markCurrentStep = function () {
    const stage = replay.querySelector("#replay-stage");
    if (!stage) {
      return;
    }
    replay.querySelectorAll(".replay-moves a[data-step]").forEach(function (link) {
      if (link.dataset.step === stage.dataset.step) {
        link.setAttribute("aria-current", "step");
        link.scrollIntoView({ block: "nearest" });
      } else {
        link.removeAttribute("aria-current");
      }
    });
  };
  document.body.addEventListener("htmx:afterSettle", markCurrentStep);
})();
