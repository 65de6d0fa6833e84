// The game page's small helpers. The page works without them: every control is a plain form.
//
// - Live updates: while the tab is visible, ask every couple of seconds whether the game's
//   version changed (a 304 says no), and if so fetch the regions that changed.
// - Each htmx request says which regions the page shows (their digests), so the server sends
//   back only the ones that differ.
// - The take-gems and return-tokens forms enable their button only for a legal choice.
(function () {
  "use strict";

  document.body.addEventListener("htmx:configRequest", function (event) {
    const shown = Array.from(
      document.querySelectorAll("[data-region]"),
      (region) => region.dataset.region + "=" + region.dataset.digest,
    );
    event.detail.headers["X-Region-Digests"] = shown.join(",");
  });

  const game = document.querySelector("[data-live]");
  if (game) {
    let asking = false;
    const checkForNews = async function () {
      if (document.visibilityState !== "visible" || asking) {
        return;
      }
      const shown = document.querySelector("[data-version]");
      asking = true;
      try {
        const response = await fetch(game.dataset.versionUrl, {
          headers: { "If-None-Match": '"' + shown.dataset.version + '"' },
          cache: "no-store",
          credentials: "same-origin",
        });
        if (response.status === 200) {
          if (game.dataset.status === "waiting") {
            window.location.reload();
          } else {
            await htmx.ajax("GET", game.dataset.regionsUrl, { source: game, swap: "none" });
          }
        }
      } catch (error) {
        // Offline for a moment: the next tick asks again.
      } finally {
        asking = false;
      }
    };
    window.setInterval(checkForNews, Number(game.dataset.pollMs) || 2000);
    document.addEventListener("visibilitychange", checkForNews);
  }

  const colourOrder = ["white", "blue", "green", "red", "black"];

  const updateTakeForm = function (form) {
    const legal = new Set((form.dataset.legalTakes || "").split(" ").filter(Boolean));
    const most = Number(form.dataset.most) || 3;
    const boxes = Array.from(form.querySelectorAll('input[name="gems"]'));
    const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
    chosen.sort((a, b) => colourOrder.indexOf(a) - colourOrder.indexOf(b));
    for (const box of boxes) {
      box.disabled = !box.checked && chosen.length >= most;
    }
    const button = form.querySelector(".take-selected");
    const hint = form.querySelector(".take-hint");
    if (!button) {
      return;
    }
    const isLegal = legal.has(chosen.join(","));
    button.disabled = !isLegal;
    if (hint) {
      const left = most - chosen.length;
      hint.textContent = isLegal
        ? "Ready: take " + chosen.join(", ") + "."
        : "Pick " + left + " more different colour" + (left === 1 ? "." : "s.");
    }
  };

  const updateReturnForm = function (form) {
    const wanted = Number(form.dataset.count);
    let chosen = 0;
    for (const input of form.querySelectorAll('input[type="number"]')) {
      chosen += Math.max(0, Number(input.value) || 0);
    }
    form.querySelector('button[type="submit"]').disabled = chosen !== wanted;
    form.querySelector(".return-progress").textContent =
      chosen + " of " + wanted + " chosen";
  };

  const prepare = function (root) {
    root.querySelectorAll(".take-form").forEach(updateTakeForm);
    root.querySelectorAll(".return-form").forEach(updateReturnForm);
  };

  document.addEventListener("input", function (event) {
    const takeForm = event.target.closest(".take-form");
    if (takeForm) {
      updateTakeForm(takeForm);
    }
    const returnForm = event.target.closest(".return-form");
    if (returnForm) {
      updateReturnForm(returnForm);
    }
  });
  htmx.onLoad(prepare);
  prepare(document);
})();
