// Game analysis on the replay page: the marks of an analysed game beside their moves in the
// move list. The panel names them (data-analysis-marks="12:blunder 30:mistake"); without this
// file they are listed in the panel itself. Runs again when htmx swaps the panel in (an
// analysis that has just finished).
(function () {
  "use strict";

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
})();
