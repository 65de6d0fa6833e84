// Game analysis on the replay page.
//
// - The marks of an analysed game beside their moves in the move list. The panel names them
//   (data-analysis-marks="12:blunder 30:mistake"); without this file they are listed in the
//   panel itself. Runs again when htmx swaps the panel in (an analysis that has just finished).
// - While an analysis is under way its progress comes by push (the panel listens to the game's
//   stream). Only while that stream is not open (a WSGI server, Redis away, too many streams)
//   does the panel ask for its progress every couple of seconds instead, as a game page asks
//   for its version.
(function () {
  "use strict";

  const FALLBACK_POLL_MS = 2000;

  const LABELS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

  const markMoves = function () {
    const panel = document.querySelector("[data-analysis-marks]");
    const list = document.querySelector(".replay-moves");
    if (!panel || !list) {
      return;
    }
    panel.dataset.analysisMarks.split(" ").forEach(function (entry) {
      const parts = entry.split(":");
      const link = list.querySelector('a[data-step="' + parts[0] + '"]');
      if (!link || link.querySelector(".analysis-move-mark") || !LABELS[parts[1]]) {
        return;
      }
      const mark = document.createElement("span");
      mark.className = "analysis-mark analysis-move-mark analysis-mark--" + parts[1];
      mark.textContent = LABELS[parts[1]];
      mark.title = parts[1];
      mark.setAttribute("aria-label", parts[1]);
      link.appendChild(mark);
    });
  };

  markMoves();
  document.addEventListener("htmx:afterSwap", markMoves);

  let pushOpen = false;
  document.body.addEventListener("htmx:sseOpen", () => { pushOpen = true; });
  document.body.addEventListener("htmx:sseError", () => { pushOpen = false; });
  window.setInterval(function () {
    const ask = document.querySelector("[data-analysis-ask]");
    if (ask && !pushOpen && window.htmx && document.visibilityState === "visible") {
      window.htmx.trigger(ask, "analysis-fallback");
    }
  }, FALLBACK_POLL_MS);
})();
