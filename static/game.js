// The game page's helpers. The page works without them: every control is a plain form.
//
// - Live updates: the server pushes each new version (htmx's SSE extension, see game.html),
//   and the page then fetches the regions that changed. While the push stream is not open
//   (a WSGI server, Redis away), the page falls back to asking for the version every couple
//   of seconds.
// - Never back in time: answers (a move's own, a push's, a poll's) can land in any order. An
//   answer older than what the page shows is dropped, and so is any region older than the one
//   it would replace, or the same (which would undo what the player is picking on it). An
//   answer lists every region's digest; a region that differs from it (changed by another
//   answer meanwhile) makes the page ask once more.
// - Your turn: the tab's title and icon say so; sound and notification are opt-in.
// - The take-gems and return-tokens forms enable their button only for a legal choice.
// - Splendor Duel: a card's Buy / Reserve sends the same move as its button in the grouped list.
// - Splendor Duel: a line of tokens is picked on the board, token by token; only tokens that
//   still lead to a legal line can be picked, and the line is sent by its confirm button.
// - Splendor Duel: every other decision is made on the table too: a gold taken to reserve a
//   card (then the card, by its own moves), a privilege spent on a token,
//   the bag to replenish, the joker's colour, the matching token, the opponent's token, a royal,
//   and the tokens put back above ten (picked in one's panel, then confirmed). Each sends the
//   same move as its button in the grouped list, which stays for a page without the script.
(function () {
  "use strict";

  const regionsShown = () => Array.from(document.querySelectorAll("[data-region]"));
  const versionShown = function () {
    return Math.max(0, ...regionsShown().map((region) => Number(region.dataset.version) || 0));
  };

  document.body.addEventListener("htmx:configRequest", function (event) {
    const shown = regionsShown().map(
      (region) => region.dataset.region + "=" + region.dataset.digest,
    );
    event.detail.headers["X-Region-Digests"] = shown.join(",");
  });

  const game = document.querySelector("[data-live]");
  const answerVersion = (xhr) => Number(xhr.getResponseHeader("X-Game-Version")) || 0;

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    const version = answerVersion(event.detail.xhr);
    if (version && version < versionShown()) {
      event.detail.shouldSwap = false; // an older answer landed late: keep the newer page
    }
  });

  // A move's answer can land after a pushed version has already replaced the region of the
  // form that sent it. htmx then looks for the regions inside that detached form, finds none
  // and reports an error for each; and its events no longer reach the body. The form itself
  // still hears them: it drops the answer and asks for the regions that changed instead.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    const source = event.detail.elt;
    if (!source || source === game) {
      return;
    }
    source.addEventListener("htmx:beforeSwap", function (swap) {
      if (!source.isConnected) {
        swap.detail.shouldSwap = false;
        refresh();
      }
    }, { once: true });
  });

  // A region is replaced only by a newer one that differs. Answers to requests sent before
  // the page caught up (a push for the bot's move lands after the answer to one's own move)
  // bring back regions the page already shows: swapping them would untick the gems and close
  // the card the player has just picked.
  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    const incoming = event.detail.fragment.querySelector
      ? event.detail.fragment.querySelector("[data-version]")
      : null;
    const target = event.detail.target;
    const current = Number(target.dataset.version) || 0;
    if (!incoming) {
      return;
    }
    const version = Number(incoming.dataset.version);
    if (version < current || (version === current &&
                              incoming.dataset.digest === target.dataset.digest)) {
      event.detail.shouldSwap = false;
    }
    // The same region again (a move's answer and a push's fetch both bring it): keeping the one
    // shown keeps what the player is picking on it (tokens of a line, tokens to put back).
    if (incoming && Number(incoming.dataset.version) === current &&
        incoming.dataset.digest === event.detail.target.dataset.digest) {
      event.detail.shouldSwap = false;
    }
  });

  let refreshing = false;
  const refresh = async function () {
    if (!game || refreshing) {
      return;
    }
    refreshing = true;
    try {
      await htmx.ajax("GET", game.dataset.regionsUrl, { source: game, swap: "none" });
    } finally {
      refreshing = false;
    }
  };

  const checkDigests = function (xhr) {
    const version = answerVersion(xhr);
    if (!version || version < versionShown()) {
      return;
    }
    const expected = new Map(
      (xhr.getResponseHeader("X-Region-Digests") || "")
        .split(",")
        .filter(Boolean)
        .map((pair) => pair.split("=")),
    );
    const stale = regionsShown().some(
      (region) =>
        expected.has(region.dataset.region) &&
        expected.get(region.dataset.region) !== region.dataset.digest,
    );
    if (stale) {
      refresh();
    }
  };
  document.body.addEventListener("htmx:afterOnLoad", function (event) {
    const xhr = event.detail.xhr;
    if (xhr) {
      window.setTimeout(() => checkDigests(xhr), 50);
    }
  });

  // A push for a version the page already shows (its own move's answer came first) fetches
  // nothing.
  document.body.addEventListener("htmx:confirm", function (event) {
    const trigger = event.detail.triggeringEvent;
    if (!trigger || trigger.type !== "sse:version" || !trigger.detail) {
      return;
    }
    if (Number(trigger.detail.data) <= versionShown()) {
      event.preventDefault();
    }
  });

  let pushOpen = false;
  const showPush = function (open) {
    pushOpen = open;
    if (game) {
      game.dataset.push = open ? "open" : "closed";
    }
  };
  document.body.addEventListener("htmx:sseOpen", () => showPush(true));
  document.body.addEventListener("htmx:sseError", () => showPush(false));

  // The waiting room reloads on any news: someone sat down, or the game started.
  const live = game || document.querySelector("[data-live]");
  if (live && live.dataset.status === "waiting") {
    document.body.addEventListener("htmx:sseMessage", () => window.location.reload());
  }

  // The fallback while no push stream is open: ask whether the version changed.
  if (live) {
    let asking = false;
    const checkForNews = async function () {
      if (document.visibilityState !== "visible" || asking || pushOpen) {
        return;
      }
      const shown = live.dataset.status === "waiting"
        ? Number(live.querySelector("[data-version]").dataset.version)
        : versionShown();
      asking = true;
      try {
        const response = await fetch(live.dataset.versionUrl, {
          headers: { "If-None-Match": '"' + shown + '"' },
          cache: "no-store",
          credentials: "same-origin",
        });
        if (response.status === 200) {
          if (live.dataset.status === "waiting") {
            window.location.reload();
          } else {
            await refresh();
          }
        }
      } catch (error) {
        // Offline for a moment: the next tick asks again.
      } finally {
        asking = false;
      }
    };
    window.setInterval(checkForNews, Number(live.dataset.pollMs) || 2000);
    document.addEventListener("visibilitychange", checkForNews);
  }

  // Your turn: title, icon, and the optional sound and notification ------------------------

  const alerts = {
    sound: window.localStorage.getItem("splendor.alert.sound") === "on",
    notify: window.localStorage.getItem("splendor.alert.notify") === "on",
  };
  const alertLabels = { sound: "Sound on my turn", notify: "Notify on my turn" };
  const showAlertToggles = function () {
    document.querySelectorAll(".alert-toggle").forEach(function (button) {
      const on = alerts[button.dataset.alert];
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = alertLabels[button.dataset.alert] + ": " + (on ? "on" : "off");
      button.closest(".alerts").hidden = false;
    });
  };
  document.addEventListener("click", async function (event) {
    const button = event.target.closest(".alert-toggle");
    if (!button) {
      return;
    }
    const name = button.dataset.alert;
    alerts[name] = !alerts[name];
    if (name === "notify" && alerts.notify && "Notification" in window) {
      alerts.notify = (await Notification.requestPermission()) === "granted";
    }
    window.localStorage.setItem("splendor.alert." + name, alerts[name] ? "on" : "off");
    showAlertToggles();
  });

  const chime = function () {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = 880;
      volume.gain.setValueAtTime(0.15, audio.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(volume).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch (error) {
      // No audio here: the title still says it.
    }
  };

  let wasMyTurn = null;
  const showTurn = function () {
    const status = document.getElementById("region-status");
    if (!game || !status) {
      return;
    }
    const isMyTurn = status.dataset.myTurn === "true";
    const name = "Game " + game.dataset.game;
    document.title = isMyTurn ? "● Your turn · " + name : name + " · Splendor Online";
    const icon = document.querySelector("link[rel=icon]");
    if (icon) {
      icon.href = isMyTurn ? game.dataset.faviconTurn : game.dataset.favicon;
    }
    if (isMyTurn && wasMyTurn === false) {
      if (alerts.sound) {
        chime();
      }
      if (alerts.notify && "Notification" in window && Notification.permission === "granted") {
        new Notification("Your turn", { body: name, tag: "splendor-" + game.dataset.game });
      }
    }
    wasMyTurn = isMyTurn;
  };

  // Cards: a click (or Enter) opens a card's Buy / Reserve over it; the choice is the confirm.
  // Nothing is sent before it, and Escape, Cancel or a click elsewhere closes the card.

  document.documentElement.classList.add("js");

  const closeCards = function (except) {
    document.querySelectorAll(".card.is-open").forEach(function (card) {
      if (card !== except) {
        card.classList.remove("is-open");
        card.setAttribute("aria-expanded", "false");
      }
    });
  };

  document.addEventListener("click", function (event) {
    const card = event.target.closest(".card.has-actions");
    if (event.target.closest(".card-close")) {
      closeCards();
      if (card) {
        card.focus();
      }
      return;
    }
    if (!card) {
      closeCards();
      return;
    }
    if (event.target.closest(".card-actions")) {
      return; // a choice inside an open card: its form does the rest
    }
    const open = !card.classList.contains("is-open");
    closeCards(card);
    card.classList.toggle("is-open", open);
    card.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      const first = card.querySelector(".card-actions button");
      if (first) {
        first.focus();
      }
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      const open = document.querySelector(".card.is-open");
      closeCards();
      if (open) {
        open.focus();
      }
    } else if ((event.key === "Enter" || event.key === " ") &&
               event.target.matches && event.target.matches(".card.has-actions")) {
      event.preventDefault();
      event.target.click();
    }
  });

  // Legal choices in the forms ---------------------------------------------------------------

  const colourOrder = ["white", "blue", "green", "red", "black"];

  const inWords = function (names) {
    return names.length > 1
      ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1]
      : names.join("");
  };

  const updateTakeForm = function (form) {
    const legal = new Set((form.dataset.legalTakes || "").split(" ").filter(Boolean));
    const most = Number(form.dataset.most) || 3;
    const boxes = Array.from(form.querySelectorAll('input[name="gems"]'));
    const chosen = boxes.filter((box) => box.checked).map((box) => box.value);
    chosen.sort((a, b) => colourOrder.indexOf(a) - colourOrder.indexOf(b));
    for (const box of boxes) {
      box.disabled = !box.checked && chosen.length >= most;
      box.closest(".token-choice").title = box.disabled
        ? most + " colours picked already: untick one to pick this one"
        : "";
    }
    // A ×2 takes two of its colour and nothing else: with gems ticked, it says it replaces them.
    const twos = Array.from(form.querySelectorAll(".take-two"));
    for (const two of twos) {
      two.dataset.title = two.dataset.title || two.title;
      const title = chosen.length
        ? two.dataset.title + " instead of " + inWords(chosen)
        : two.dataset.title;
      two.title = title;
      two.setAttribute("aria-label", title);
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
      hint.textContent = (isLegal
        ? "Ready: take " + inWords(chosen) + "."
        : "Pick " + left + " more different colour" + (left === 1 ? "." : "s.")) +
        (chosen.length && twos.length ? " ×2 takes two of one colour instead of these." : "");
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


  // Splendor Duel: a move made on the table presses the same move's button in the grouped
  // list, the one form that sends it (with its version and idempotency key).
  const sendAction = function (action) {
    const input = Array.from(document.querySelectorAll('.decision input[name="action"]')).find(
      (item) => item.value === action,
    );
    if (!input) {
      return false;
    }
    closeCards();
    input.form.requestSubmit();
    return true;
  };

  // Splendor Duel: picking a line of tokens on the board --------------------------------------
  //
  // The server lists the legal lines on the board's form (data-lines); a token of no legal
  // line is never a button. A pressed token can be released; a token can be pressed only if
  // some legal line holds it and every pressed one. The confirm button is enabled when the
  // pressed tokens are exactly one legal line, and sends that line's action.
  //
  // "Spend a privilege" switches the board to the tokens a privilege may take (data-privilege):
  // a click on one of them sends it; a second press of the switch, or Clear, switches back.

  const lineNames = function (spaces) {
    const count = spaces.length === 1 ? "1 token" : spaces.length + " tokens";
    return count + " (" + spaces.join(", ") + ")";
  };

  const updateLinePicker = function (board) {
    const form = board.querySelector(".duel-line-form");
    if (!form) {
      return;
    }
    form.hidden = false;
    const lines = JSON.parse(form.dataset.lines || "[]");
    const tokens = Array.from(board.querySelectorAll(".duel-token:not(.duel-pick)"));
    const hint = form.querySelector(".duel-line-hint");
    if (isSpendingPrivilege(form)) {
      for (const token of tokens) {
        token.setAttribute("aria-pressed", "false");
        token.classList.remove("is-picked");
        token.disabled = !token.dataset.privilege;
      }
      form.querySelector('input[name="action"]').value = "";
      form.querySelector(".duel-line-take").disabled = true;
      form.querySelector(".duel-line-clear").disabled = false;
      hint.textContent = "Spend a privilege: click the token to take (any but a gold).";
      setGoldsOffered(board, false);
      return;
    }
    setGoldsOffered(board, true);
    const pressed = tokens
      .filter((token) => token.getAttribute("aria-pressed") === "true")
      .map((token) => token.dataset.space);
    const open = lines.filter((line) => pressed.every((space) => line.spaces.includes(space)));
    const reachable = new Set(open.flatMap((line) => line.spaces));
    for (const token of tokens) {
      const isPressed = token.getAttribute("aria-pressed") === "true";
      token.disabled = !isPressed && !reachable.has(token.dataset.space);
      token.classList.toggle("is-picked", isPressed);
    }
    const line = open.find((item) => item.spaces.length === pressed.length);
    form.querySelector('input[name="action"]').value = line ? line.action : "";
    form.querySelector(".duel-line-take").disabled = !line;
    form.querySelector(".duel-line-clear").disabled = pressed.length === 0;
    if (line) {
      hint.textContent = "Ready: take " + lineNames(line.spaces) + ".";
    } else if (pressed.length) {
      hint.textContent = "Picked " + pressed.join(", ") + ": pick the rest of the line.";
    } else {
      hint.textContent = "Pick a line: click 1 to 3 tokens in a row, a column or a diagonal.";
    }
  };

  // A gold is taken by a click of its own (then a card is reserved), but not while a privilege
  // is being spent: the privilege's token is the one clicked next, and it cannot be a gold.
  const setGoldsOffered = function (board, isOffered) {
    board.querySelectorAll(".duel-gold.duel-pick").forEach((gold) => (gold.disabled = !isOffered));
  };

  const isSpendingPrivilege = function (form) {
    const spend = form.querySelector(".duel-privilege-spend");
    return Boolean(spend) && spend.getAttribute("aria-pressed") === "true";
  };

  document.addEventListener("click", function (event) {
    const token = event.target.closest(".duel-token:not(.duel-pick)");
    const clear = event.target.closest(".duel-line-clear");
    const spend = event.target.closest(".duel-privilege-spend");
    const control = token || clear || spend;
    const board = control && control.closest(".duel-board");
    if (!board) {
      return;
    }
    const form = board.querySelector(".duel-line-form");
    if (spend) {
      const isOn = spend.getAttribute("aria-pressed") === "true";
      spend.setAttribute("aria-pressed", isOn ? "false" : "true");
    } else if (token && form && isSpendingPrivilege(form)) {
      sendAction(token.dataset.privilege);
      return;
    } else if (token) {
      const isPressed = token.getAttribute("aria-pressed") === "true";
      token.setAttribute("aria-pressed", isPressed ? "false" : "true");
    } else {
      board.querySelectorAll(".duel-token:not(.duel-pick)").forEach(function (item) {
        item.setAttribute("aria-pressed", "false");
      });
      const spending = board.querySelector(".duel-privilege-spend");
      if (spending) {
        spending.setAttribute("aria-pressed", "false");
      }
    }
    updateLinePicker(board);
  });

  // Splendor Duel: a card's (or a deck's) move, and a thing on the table that makes a decision
  // by itself (.duel-pick: a token, the bag, a bonus colour, the opponent's token, a royal).
  document.addEventListener("click", function (event) {
    const move = event.target.closest(".duel-card-move, .duel-pick");
    if (move && !move.disabled) {
      sendAction(move.dataset.action);
    }
  });

  // Splendor Duel: tokens put back above ten, picked one click per token in one's own panel
  // (none of a colour beyond those held, none beyond the count due); the confirm sends the
  // decision's button whose tokens are exactly those picked.
  const putBackChoice = function (picked) {
    const inputs = document.querySelectorAll(
      '.decision [data-kind="discard_tokens"] input[name="action"]',
    );
    return Array.from(inputs).find(function (input) {
      const tokens = JSON.parse(input.value).tokens;
      const colours = new Set([...Object.keys(tokens), ...Object.keys(picked)]);
      return Array.from(colours).every((colour) => (tokens[colour] || 0) === (picked[colour] || 0));
    });
  };

  const updatePutBack = function (panel) {
    const form = panel.querySelector(".duel-put-back-form");
    if (!form) {
      return;
    }
    form.hidden = false;
    const due = Number(form.dataset.count);
    const chips = Array.from(panel.querySelectorAll(".duel-put-back"));
    const picked = {};
    let total = 0;
    for (const chip of chips) {
      const count = Number(chip.dataset.picked) || 0;
      if (count) {
        picked[chip.dataset.colour] = count;
        total += count;
      }
    }
    for (const chip of chips) {
      const count = picked[chip.dataset.colour] || 0;
      chip.disabled = total >= due || count >= Number(chip.dataset.held);
      chip.classList.toggle("is-picked", count > 0);
      chip.querySelector(".duel-put-back-count").textContent = count ? " −" + count : "";
    }
    const choice = total === due ? putBackChoice(picked) : null;
    const confirm = form.querySelector(".duel-put-back-confirm");
    confirm.disabled = !choice;
    confirm.dataset.action = choice ? choice.value : "";
    form.querySelector(".duel-put-back-clear").disabled = total === 0;
    const words = Object.entries(picked).map(([colour, count]) => count + " " + colour).join(", ");
    form.querySelector(".duel-put-back-hint").textContent = choice
      ? "Ready: put back " + words + "."
      : "Put " + (due - total) + " more back: click your tokens above" +
        (total ? " (picked " + words + ")." : ".");
    return Boolean(choice);
  };

  document.addEventListener("click", function (event) {
    const chip = event.target.closest(".duel-put-back");
    const clear = event.target.closest(".duel-put-back-clear");
    const confirm = event.target.closest(".duel-put-back-confirm");
    const panel = (chip || clear || confirm) && (chip || clear || confirm).closest(".duel-player");
    if (!panel) {
      return;
    }
    if (confirm) {
      sendAction(confirm.dataset.action);
      return;
    }
    panel.querySelectorAll(".duel-put-back").forEach(function (item) {
      if (item === chip) {
        item.dataset.picked = (Number(item.dataset.picked) || 0) + 1;
      } else if (clear) {
        delete item.dataset.picked;
      }
    });
    if (updatePutBack(panel)) {
      panel.querySelector(".duel-put-back-confirm").focus(); // the picked chips are disabled now
    }
  });

  // Elements of ``root`` (itself included) that match ``selector``: a swapped-in region is the
  // root htmx hands over.
  const within = function (root, selector) {
    const found = Array.from(root.querySelectorAll(selector));
    return root.matches && root.matches(selector) ? [root, ...found] : found;
  };

  const prepare = function (root) {
    within(root, ".duel-board").forEach(updateLinePicker);
    within(root, ".duel-player").forEach(updatePutBack);
    within(root, ".duel-pick").forEach((pick) => (pick.disabled = false));
    // A decision made on the table: its list of buttons, opened for a page without the
    // script, would push the table down.
    within(root, ".decision").forEach(function (decision) {
      if (decision.querySelector(".duel-table-hint")) {
        decision.querySelectorAll("details[open]").forEach((group) => (group.open = false));
      }
    });
    root.querySelectorAll(".take-form").forEach(updateTakeForm);
    root.querySelectorAll(".return-form").forEach(updateReturnForm);
    root.querySelectorAll(".card-close").forEach((button) => (button.hidden = false));
    showTurn();
    showAlertToggles();
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
  if (game) {
    game.dataset.ready = "true";
  }
})();
