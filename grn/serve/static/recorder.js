(function () {
  "use strict";
  /* grn serve's page: it knows no game.  Every choice, board and word comes from the server, which asks
     the game's rules engine; record text is put on the page with textContent only, and the board SVG
     (drawn by grn, record text escaped) with innerHTML.  The CSP lets no other script run. */
  var $ = function (id) { return document.getElementById(id); };
  /* The token travels in an HttpOnly cookie the server set when its start-up address was opened (the server
     then sent the browser on to the address without it): the page never holds the token, and no address it
     makes carries it.  A token an older page kept in local storage is dropped. */
  localStorage.removeItem("grn-token");
  var meta = null, S = null, picked = [], preview = null;

  /* A message goes beside what caused it (the control last tapped, or the one named), in sight (R356). */
  var lastTapped = null;
  document.addEventListener("click", function (ev) { lastTapped = ev.target; }, true);
  var statusLine = null;  // kept: a list redrawn may take it off the page, the next message puts it back
  function status(text, near) {
    var s = statusLine = statusLine || $("status");
    s.textContent = text || "";
    if (!text) return;
    near = near || lastTapped;
    if (near && near.closest && document.contains(near) && !near.closest("header")) {
      var block = near.closest("form, #turn-buttons, #game-buttons, #options, #fork-ask, p, table, ol, div, section") || near;
      if (block.nextSibling !== s) block.parentNode.insertBefore(s, block.nextSibling);
    }
    s.scrollIntoView({block: "nearest"});
  }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function api(method, path, body) {
    var opts = {method: method, headers: {}, credentials: "same-origin"};
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch(path, opts).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) { var e = new Error(data.error || ("error " + r.status)); e.status = r.status; throw e; }
        return data;
      });
    }, function () { throw lost(); });
  }
  /* fetch fails only when the server cannot be reached: say so, and that nothing tapped is lost (R356) */
  function lost() {
    var e = new Error("No connection to the server (the network dropped?). Nothing is lost: the choices of this " +
                      "turn stay on this phone; tap again when the connection is back.");
    e.status = 0;
    return e;
  }
  /* a message that stays until the next change of the game: where the recording goes, what was taken back */
  function notice(text, near, label, action) {
    var n = $("notice");
    $("notice-text").textContent = text || ""; n.hidden = !text;
    $("notice-action").hidden = !label; $("notice-action").textContent = label || "";
    $("notice-action").onclick = action || null;
    if (!text) return;
    if (near && n.previousSibling !== near) near.parentNode.insertBefore(n, near.nextSibling);
    n.scrollIntoView({block: "nearest"});
  }
  function fail(err, near) { status(err.message || String(err), near); }
  function show(which) {
    ["archive", "new", "record"].forEach(function (s) { $(s).hidden = s !== which; });
  }

  /* ---- the archive ---- */
  function search(ev) {
    if (ev) ev.preventDefault();
    var q = new URLSearchParams();
    new FormData($("search")).forEach(function (v, k) { if (v) q.append(k, v); });
    api("GET", "/api/games?" + q).then(function (data) {
      var body = $("games").tBodies[0];
      body.textContent = "";
      data.games.forEach(function (g) {
        var tr = el("tr");
        [g.id, g.game, g.date || "", g.players.join(", "), g.result || "", g.turns].forEach(function (v) { tr.appendChild(el("td", v)); });
        var td = el("td");
        var open = el("button", "Open"); open.type = "button";
        open.addEventListener("click", function () { openGame(g.id, "end"); });
        var view = el("a", "View"); view.href = "/games/" + g.id + "/view";
        var del = el("button", "Delete"); del.type = "button";
        del.addEventListener("click", function () {
          if (!confirm("Delete game " + g.id + " (" + g.players.join(", ") + ") for good?")) return;
          api("POST", "/api/games/" + g.id + "/delete", {confirm: g.id}).then(function () { status("game " + g.id + " deleted"); search(); }, fail);
        });
        td.appendChild(open); td.appendChild(document.createTextNode(" ")); td.appendChild(view);
        if (g.reviewed) {  // the game's analysis, kept with it (R430)
          var review = el("a", "Review"); review.href = "/games/" + g.id + "/view?review=1"; review.className = "reviewed";
          td.appendChild(document.createTextNode(" ")); td.appendChild(review);
        }
        td.appendChild(document.createTextNode(" ")); td.appendChild(del);
        tr.appendChild(td); body.appendChild(tr);
      });
      status(data.games.length ? "" : "no game found");
    }, fail);
  }
  function importFile(ev) {
    ev.preventDefault();
    var f = $("import").elements.file.files[0], link = $("import").elements.link.value.trim();
    var send = function (name, text) {
      api("POST", "/api/import", {name: name, text: text}).then(function (d) { status("imported game(s) " + d.ids.join(", ")); search(); }, fail);
    };
    if (link) send("link", link);
    else if (f) f.text().then(function (t) { send(f.name, t); });
    else status("choose a file or give a link");
  }

  /* ---- a new game ---- */
  function gameMeta(name) { return meta.games.filter(function (g) { return g.name === name; })[0]; }
  /* The New game form: a name and a colour picker a player, and the game's options as checkboxes and lists,
     read from the words of its options' help (``farmers=on|off``, ``goldmines``, ``cowboys=4|5``, ``basic=N``);
     what they cannot say goes in "More options", as GRN writes it (R354). */
  function describeGame() {
    var g = gameMeta($("newgame").elements.game.value), count = $("newgame").elements.count;
    if (!g) return;
    var was = Number(count.value) || g.min;
    count.textContent = "";
    for (var n = g.min; n <= g.max; n++) count.appendChild(new Option(String(n), String(n)));
    count.value = String(Math.min(Math.max(was, g.min), g.max));
    playerRows();
    $("colours").textContent = g.min + " to " + g.max + " players; colours: " + g.colours.join(", ") +
      ". A player may own two colours (Gold with two players asks it).";
    $("options-help").textContent = "options: " + g.options;
    var boxes = $("option-boxes"); boxes.textContent = "";
    boxes.appendChild(el("legend", "Options"));
    optionWords(g.options).forEach(function (o) {
      var label = el("label", null, "checkbox"), input;
      if (o.kind === "flag" || o.kind === "onoff") {
        input = el("input"); input.type = "checkbox"; input.checked = o.kind === "onoff";
        label.appendChild(input); label.appendChild(document.createTextNode(o.name + (o.hint ? " (" + o.hint + ")" : "")));
      } else {
        label.className = "";
        label.appendChild(document.createTextNode(o.name + " "));
        if (o.kind === "choice") {
          input = el("select"); input.appendChild(new Option("the game's default", ""));
          o.values.forEach(function (v) { input.appendChild(new Option(v, v)); });
        } else { input = el("input"); input.inputMode = "numeric"; input.placeholder = o.hint || "a number"; }
        label.appendChild(input);
      }
      input.dataset.option = o.name; input.dataset.kind = o.kind;
      boxes.appendChild(label);
    });
    boxes.hidden = !boxes.querySelector("input,select");
  }
  function optionWords(help) {
    var hints = {};
    var plain = help.replace(/(\w+)(=\S+)?\s*\(([^)]*)\)/g, function (all, name, value, hint) { hints[name] = hint; return name + (value || ""); });
    var out = [];
    plain.split(/,\s*|\s+and\s+/).forEach(function (item) {
      var m = /^(\w+)(?:=(.+))?$/.exec(item.trim());
      if (!m || m[1] === "none") return;
      var name = m[1], value = m[2], hint = (hints[name] || "").replace(/^or .*/, "");
      if (value === undefined) out.push({name: name, kind: "flag", hint: hint});
      else if (value === "on|off") out.push({name: name, kind: "onoff", hint: hint});
      else if (value.indexOf("|") > 0) out.push({name: name, kind: "choice", values: value.split("|"), hint: hint});
      else out.push({name: name, kind: "number", hint: hint});
    });
    return out;
  }
  function playerRows() {
    var g = gameMeta($("newgame").elements.game.value), n = Number($("newgame").elements.count.value);
    var box = $("players"), rows = box.querySelectorAll(".player-row");
    for (var i = rows.length; i < n; i++) {
      var row = el("div", null, "player-row");
      var name = el("input"); name.name = "player-name"; name.placeholder = "Player " + (i + 1); name.autocomplete = "off";
      name.setAttribute("aria-label", "player " + (i + 1) + "'s name");
      var first = el("select"), second = el("select"), who = el("select", null, "who");
      first.setAttribute("aria-label", "player " + (i + 1) + "'s colour");
      second.setAttribute("aria-label", "player " + (i + 1) + "'s second colour");
      /* a seat is a person or a bot, the bot by its name and level (R375) */
      who.setAttribute("aria-label", "who plays seat " + (i + 1)); who.name = "player-who";
      who.appendChild(new Option("a person", ""));
      (meta.bots || []).forEach(function (b) { who.appendChild(new Option("grn: " + b, b)); });
      who.addEventListener("change", (function (name, who) { return function () {
        name.hidden = !!who.value; name.disabled = !!who.value;
      }; })(name, who));
      row.appendChild(name); row.appendChild(first); row.appendChild(second); row.appendChild(who); box.appendChild(row);
    }
    rows = box.querySelectorAll(".player-row");
    for (var k = 0; k < rows.length; k++) {
      rows[k].hidden = k >= n;
      var pickers = rows[k].querySelectorAll("select:not(.who)");
      [0, 1].forEach(function (j) {
        var sel = pickers[j], kept = sel.value;
        sel.textContent = "";
        if (j === 1) sel.appendChild(new Option("no second colour", ""));
        g.colours.forEach(function (c) { sel.appendChild(new Option(c, c)); });
        sel.value = kept && g.colours.indexOf(kept) >= 0 ? kept : (j === 0 ? g.colours[k % g.colours.length] : "");
      });
    }
    /* Gold with two players: each owns two colours (the rules); a second colour nobody has is filled in */
    var two = g.name === "gold" && n === 2, used = [];
    for (k = 0; k < rows.length; k++) {
      if (rows[k].hidden) continue;
      var sel = rows[k].querySelectorAll("select:not(.who)");
      if (sel[1].dataset.auto && !two) sel[1].value = "";
      used.push(sel[0].value);
      if (sel[1].value) used.push(sel[1].value);
    }
    for (k = 0; k < n; k++) {
      var second = rows[k].querySelectorAll("select:not(.who)")[1];
      second.dataset.auto = two ? "1" : "";
      if (two && !second.value) {
        second.value = g.colours.filter(function (c) { return used.indexOf(c) < 0; })[0] || "";
        used.push(second.value);
      }
    }
  }
  function newGame(ev) {
    ev.preventDefault();
    var f = $("newgame").elements, players = [], options = [], against = false;
    $("players").querySelectorAll(".player-row").forEach(function (row, i) {
      if (row.hidden) return;
      var who = row.querySelector("select.who").value, c = row.querySelectorAll("select:not(.who)");
      var name = who || row.querySelector("input").value.trim() || "Player " + (i + 1);
      if (who) against = true;
      players.push(name + " (" + c[0].value + (c[1].value ? "+" + c[1].value : "") + ")");
    });
    $("option-boxes").querySelectorAll("[data-option]").forEach(function (input) {
      var name = input.dataset.option, kind = input.dataset.kind;
      if (kind === "flag" && input.checked) options.push(name);
      else if (kind === "onoff") options.push(name + "=" + (input.checked ? "on" : "off"));
      else if ((kind === "choice" || kind === "number") && input.value.trim()) options.push(name + "=" + input.value.trim());
    });
    if (f.options.value.trim()) options.push(f.options.value.trim());
    api("POST", "/api/games", {game: f.game.value, players: players.join(", "), options: options.join(", "),
                               event: f.event.value, site: f.site.value, date: f.date.value, against: against})
      .then(function (d) { openGame(d.id, "0"); }, function (err) { fail(err, $("newgame").querySelector("button[type=submit]")); });
  }

  /* ---- recording ---- */
  function openGame(id, at) {
    picked = []; autoAt = []; preview = null;
    load(id, at);
  }
  var busy = false;  // a state is being fetched: taps wait (a double tap never picks twice)
  function setBusy(on) { busy = on; document.body.dataset.busy = on ? "1" : ""; }
  function fetchState(id, at, words) {
    var q = new URLSearchParams({at: at, picked: JSON.stringify(words)});
    if (preview) q.set("preview", preview);
    setBusy(true);
    return api("GET", "/api/games/" + id + "?" + q).then(function (d) { setBusy(false); return d; },
                                                       function (e) { setBusy(false); throw e; });
  }
  function shown(data) {
    S = data;
    if (S.dealer) {
      /* a game against grn: the deal gave some of the turn's words (the tile drawn, a card's face): they are
         the turn's, and Back passes over them */
      picked = S.picked.slice();
      autoAt = autoAt.filter(function (i) { return i < picked.length && S.dealt.indexOf(i) < 0; }).concat(S.dealt)
        .sort(function (a, b) { return a - b; });
    }
    render(); status("");
    $("vs").hidden = !S.dealer;
    $("hint").hidden = S.over || S.bot_to_move || !S.step;
    if (S.bot_to_move && !botPlaying) playBots();
    /* the address keeps the turn's choices too: a phone reloaded comes back with its taps */
    location.hash = "game=" + S.id + "&at=" + encodeURIComponent(S.address) +
      (picked.length ? "&picked=" + encodeURIComponent(JSON.stringify(picked)) : "");
  }
  function load(id, at) {
    return fetchState(id, at, picked).then(shown, fail);
  }
  /* a change of the game; resolves to the new state, or null when it was refused (the message says why) */
  function post(path, body) {
    body.at = S.address; body.base = S.base;
    var near = lastTapped;
    return api("POST", "/api/games/" + S.id + "/" + path, body).then(function (data) {
      picked = []; autoAt = []; preview = null; notice(""); redoTurn = null; shown(data);
      return data;
    }, function (err) {
      if (err.status === 409) changedElsewhere("Not recorded: another phone changed this game meanwhile.");
      else fail(err, near);
      return null;
    });
  }
  /* Another phone changed the game (R352): show the game as it is now.  The taps of the turn being built are
     kept when that turn is still the next to record here; when the other phone recorded it, the phone moves
     on to the game's end and says what was recorded. */
  function changedElsewhere(why) {
    var id = S.id, at = S.address, keep = picked.slice(), turns = S.moves.turns;
    var atEnd = !turns.length ? at === "0" || at === (S.moves.parent || "0") : turns[turns.length - 1].address === at;
    var say = function (text) { notice((why ? why + " " : "") + text, $("title")); };
    return fetchState(id, at, keep).then(function (data) {
      var now = data.moves.turns, last = now[now.length - 1];
      if (atEnd && last && last.address !== at) {
        picked = []; autoAt = []; preview = null;
        return fetchState(id, "end", []).then(function (end) {
          shown(end);
          say("Another phone recorded turn " + last.n + " (" + last.player + ": " + last.words + "); this is the game now.");
        });
      }
      shown(data);
      say("Another phone changed this game; it is shown as it is now" + (keep.length ? ", and this turn's choices are kept." : "."));
    }, function () {
      picked = []; autoAt = []; preview = null;
      return fetchState(id, "end", []).then(function (end) {
        shown(end);
        say("Another phone changed this game: the turn this phone was building is gone; this is the game now.");
      }, fail);
    });
  }
  /* the phone asks the server "has the game changed since this version?"; the answer waits for a change */
  var watching = null;
  function watch() {
    var me = watching = {id: S.id, base: S.base};
    api("GET", "/api/games/" + me.id + "/changes?base=" + encodeURIComponent(me.base)).then(function (d) {
      if (watching !== me) return;
      watching = null;
      if (botPlaying) { watching = null; return; }  // grn's own turns: the page shows them when they are done
      if (d.changed && S && S.id === me.id && S.base === me.base) changedElsewhere("");
      else if (S) watch();
    }, function () {
      if (watching !== me) return;
      setTimeout(function () { if (watching === me) watch(); }, 3000);
    });
  }
  var autoAt = [];  // which picks of the turn were taken by themselves (a step with one choice)
  function choose(word, auto) {
    if (busy) return;
    picked.push(word); preview = null;
    if (auto) autoAt.push(picked.length - 1);
    load(S.id, S.address);
  }
  /* Back takes back the last pick the player made, and the one-choice picks taken after it */
  function back() {
    if (busy) return;
    while (picked.length && autoAt.indexOf(picked.length - 1) >= 0) { picked.pop(); autoAt.pop(); }
    picked.pop(); preview = null;
    load(S.id, S.address);
  }
  /* Targets smaller than this on the screen (CSS pixels, WCAG's 24 and a margin) make the board zoom: it is
     drawn larger and pans in its box, the targets scrolled into sight (R355). */
  var MIN_TARGET = 28;
  function zoom(box, targets) {
    var svg = box.querySelector("svg");
    box.classList.remove("zoomed");
    if (!svg || !targets.length) return;
    svg.style.width = "";
    var small = Math.min.apply(null, targets.map(function (t) { var b = t.getBBox(); return Math.min(b.width, b.height); }));
    var vb = svg.viewBox.baseVal, shownWidth = svg.getBoundingClientRect().width;
    if (!vb || !vb.width || !small || small * shownWidth / vb.width >= MIN_TARGET) return;
    box.classList.add("zoomed");
    svg.style.width = Math.ceil(vb.width * MIN_TARGET / small) + "px";
    var r = targets.map(function (t) { return t.getBoundingClientRect(); }), outer = box.getBoundingClientRect();
    var left = Math.min.apply(null, r.map(function (x) { return x.left; })), right = Math.max.apply(null, r.map(function (x) { return x.right; }));
    var top = Math.min.apply(null, r.map(function (x) { return x.top; })), bottom = Math.max.apply(null, r.map(function (x) { return x.bottom; }));
    box.scrollLeft += (left + right) / 2 - (outer.left + outer.width / 2);
    box.scrollTop += (top + bottom) / 2 - (outer.top + outer.height / 2);
  }
  var renders = 0;
  function render() {
    show("record");
    /* for the tests and for anyone reading the page: what is picked, and a count of redraws */
    $("turn").dataset.picked = picked.join(" ");
    document.body.dataset.rendered = String(++renders);
    if (!watching || watching.id !== S.id || watching.base !== S.base) watch();
    $("title").textContent = "Game " + S.id + ", " + S.title + ": " + S.seats.map(function (s) { return s.name + " (" + s.key + ")"; }).join(", ");
    var sc = $("scores").tBodies[0]; sc.textContent = "";
    S.seats.forEach(function (s) {
      var tr = el("tr"); tr.appendChild(el("td", s.name + " (" + s.colours.join("+") + ")"));
      tr.appendChild(el("td", S.scores[s.key] + (S.final ? " (final " + S.final[s.key] + ")" : "")));
      sc.appendChild(tr);
    });
    var about = $("about"); about.textContent = "";
    (S.about || []).forEach(function (line) { about.appendChild(el("li", line)); });
    /* a bot's seat is grn's to play: its choices are not offered (nor taken by themselves) to the person */
    var step = S.bot_to_move ? null : S.step, box = $("options");
    box.textContent = "";
    if (!picked.length) $("auto-note").textContent = "";
    $("confirm").hidden = true; $("summary").textContent = "";
    $("back").hidden = picked.length === autoAt.length;
    $("redo").hidden = !redoTurn;
    if (S.over) {
      var top = Math.max.apply(null, S.seats.map(function (x) { return S.final ? S.final[x.key] : 0; }));
      $("prompt").textContent = "The game is over: " + (S.winners.length === 1 ? S.winners[0] + " wins" :
        S.winners.join(" and ") + " share the win") + " with " + top + " points.";
    }
    else if (S.bot_to_move) $("prompt").textContent = S.player_name + " (" + S.player + ") to play: grn plays this seat.";
    else if (!step) $("prompt").textContent = S.player_name + " to play: type the turn in GRN.";
    else {
      $("prompt").textContent = S.player_name + " (" + S.player + "): " + step.prompt;
      step.options.forEach(function (o) {
        var b = el("button"); b.type = "button"; b.dataset.word = o.word;
        if (o.picture !== null) {
          var img = el("img"); img.src = "/api/tiles/" + S.game + "/" + encodeURIComponent(o.picture) + ".svg";
          img.alt = ""; img.width = 40; img.height = 40; img.loading = "lazy"; b.appendChild(img);
        }
        b.appendChild(el("span", o.label));
        if (o.count !== null) b.appendChild(el("span", "\u00d7" + o.count, "count"));
        b.addEventListener("click", function () { choose(o.word); });
        if (o.markup.indexOf("ghost ") === 0 && o.word === (preview || step.options[0].word)) {
          b.className = "previewed"; b.setAttribute("aria-pressed", "true");  // the rotation on the board
        }
        box.appendChild(b);
      });
      if (step.done) {
        $("summary").textContent = step.summary;
        $("confirm").hidden = false;
        $("confirm").focus();
      } else if (box.firstChild && document.activeElement === document.body) box.firstChild.focus();
    }
    var boardBox = $("board");
    boardBox.innerHTML = S.svg;
    var marks = $("board").querySelectorAll(".markup-layer .highlight");
    var ghosts = step && step.options.length && step.options.every(function (o) { return o.markup.indexOf("ghost ") === 0; });
    var targets = [];
    if (step) step.options.forEach(function (o) {
      if (o.mark < 0 || !marks[o.mark]) return;
      var m = marks[o.mark];
      m.setAttribute("data-word", o.word);
      m.addEventListener("click", function (ev) { ev.stopPropagation(); choose(o.word); });
      targets.push(m);
    });
    /* The smaller target wins where two overlap (R350): a tent's frame covers its whole tile and a cowboy's
       ring lies inside it, so the targets are drawn largest first and the smallest last, on top. */
    targets.map(function (m) { var b = m.getBBox(); return {m: m, area: b.width * b.height}; })
      .sort(function (a, b) { return b.area - a.area; })
      .forEach(function (t) { t.m.parentNode.appendChild(t.m); });
    /* the board comes before a long list of the same places; otherwise after the turn's choices */
    if (targets.length) $("turn").insertBefore(boardBox, $("options"));
    else $("turn").parentNode.insertBefore(boardBox, $("turn").nextSibling);
    zoom(boardBox, targets);
    if (step && !step.done && step.options.length === 1 && !S.over) {
      /* one choice: taken by itself, said, and undone by Back with the pick before it (R355) */
      var only = step.options[0];
      $("auto-note").textContent = ($("auto-note").textContent ? $("auto-note").textContent + " " : "") +
        "Taken for you, the only choice: " + only.label + ".";
      choose(only.word, true);
      return;
    }
    if (ghosts) {
      /* tapping the board turns the tile through the rotations that fit */
      $("board").onclick = function () {
        var words = step.options.map(function (o) { return o.word; });
        preview = words[(words.indexOf(preview || words[0]) + 1) % words.length];
        load(S.id, S.address);
      };
    } else $("board").onclick = null;
    var list = $("moves"); list.textContent = "";
    if (S.moves.parent !== null) {
      var up = el("li"); var a = el("a", "\u2191 back to the line this variation leaves");
      a.addEventListener("click", function () { openGame(S.id, S.moves.parent); }); up.appendChild(a); list.appendChild(up);
    }
    S.moves.turns.forEach(function (t) {
      var li = el("li"); if (t.address === S.address) li.className = "here";
      var a = el("a", t.n + ". " + t.player + ": " + t.words + (t.glyphs.length ? " " + t.glyphs.join(" ") : ""));
      a.tabIndex = 0;
      a.addEventListener("click", function () { openGame(S.id, t.address); });
      a.addEventListener("keydown", function (e) { if (e.key === "Enter") openGame(S.id, t.address); });
      li.appendChild(a); li.appendChild(el("div", t.grn, "grn"));
      t.comments.forEach(function (c) { li.appendChild(el("div", c, "comment")); });
      t.variations.forEach(function (v) {
        var va = el("a", "(" + v.words + ")"); va.tabIndex = 0;
        va.addEventListener("click", function () { openGame(S.id, v.address); });
        li.appendChild(el("div")).appendChild(va);
      });
      list.appendChild(li);
    });
    $("grn").textContent = S.grn;
    ["grn", "json", "jcz"].forEach(function (f) { $("dl-" + f).href = "/api/games/" + S.id + "/download?format=" + f; });
    $("view").href = "/games/" + S.id + "/view";
    $("analysis").hidden = false;
    if ($("analysis").dataset.at !== S.address + " " + picked.join(" ")) {  // a search of another position is stale
      $("analysis").dataset.at = S.address + " " + picked.join(" ");
      $("best-moves").textContent = ""; $("analysis-board").textContent = "";
    }
    var g = gameMeta(S.game);
    $("sheet-box").hidden = !(g && g.tiles);
    if (g && g.tiles && !$("sheet").getAttribute("src")) $("sheet").src = "/api/tiles/" + S.game + ".svg";
  }
  // -- a game against grn: the server plays the bots' seats; a hint; a person's move taken back
  var botPlaying = false, botWords = "";  // the words of the bots that just played, kept while the next one thinks
  function playBots() {
    botPlaying = true;
    $("bot-said").textContent = (botWords ? botWords + " " : "") + S.player_name + " is thinking\u2026";
    $("hint-text").textContent = "";
    $("bot-again").hidden = true;
    api("POST", "/api/games/" + S.id + "/bots", {base: S.base}).then(function (data) {
      botPlaying = false; picked = []; autoAt = []; preview = null;
      var said = data.said || [];
      /* the words first: when another bot is still to move, shown() starts it and says it is thinking */
      $("bot-said").textContent = said.map(function (t) {
        return (t.player_name === t.bot ? t.bot : t.player_name + " (" + t.bot + ")") + ": " + t.words + (t.expects ? " \u2014 " + t.expects.replace(t.bot + " ", "") : "");
      }).join(" ");
      botWords = $("bot-said").textContent; shown(data); botWords = "";
      if (said.length) {  /* the board says a moment that it changed; the bot's places are ringed on it */
        var board = $("board");
        board.classList.add("bot-moved");
        setTimeout(function () { board.classList.remove("bot-moved"); }, 1500);
      }
    }, function (err) {
      botPlaying = false;
      if (err.status === 429) { setTimeout(function () { if (S && S.bot_to_move && !botPlaying) playBots(); }, 1500); return; }
      if (err.status === 409) { changedElsewhere(""); return; }
      $("bot-said").textContent = err.message || String(err);
      $("bot-again").hidden = false;  /* an engine that failed: ask again, or take back a move */
    });
  }
  function hint() {
    var at = S.address, asked = picked.slice();
    $("hint-text").textContent = "looking\u2026";
    api("POST", "/api/games/" + S.id + "/evaluate", {at: at, picked: asked, level: "quick"}).then(function (d) {
      if (S.address !== at) return;
      $("hint-text").textContent = "Hint: " + d.moves.slice(0, 3).map(function (m) {
        return m.words + " (" + (m.expected >= 0 ? "+" : "") + m.expected.toFixed(1) + " \u00b1 " + m.se.toFixed(1) + ")";
      }).join("; ");
      $("analysis-board").innerHTML = d.svg;
    }, function (err) { $("hint-text").textContent = err.message || String(err); });
  }
  function takeBack() {
    post("take-back", {}).then(function (data) {
      if (data) { $("bot-said").textContent = ""; notice("Your last move is taken back, with grn's replies after it.", $("vs")); }
    });
  }
  // -- analysis: the best moves here, and a whole game analysed in the background (the page polls)
  function evaluateHere() {
    var at = S.address, asked = picked.slice();
    $("analysis-status").textContent = "searching\u2026"; $("best-moves").textContent = ""; $("analysis-board").textContent = "";
    api("POST", "/api/games/" + S.id + "/evaluate", {at: at, picked: asked, level: $("level").value}).then(function (d) {
      if (S.address !== at) return;  // the page moved on meanwhile
      $("analysis-status").textContent = d.player_name + " (" + d.player + ") to play: the best moves found (" + d.level +
        ", " + d.searched + " playouts), expected final margin \u00b1 one standard error";
      d.moves.forEach(function (m) {
        var li = el("li"); li.appendChild(el("span", m.words, "words"));
        li.appendChild(el("span", " " + (m.expected >= 0 ? "+" : "") + m.expected.toFixed(1) + " \u00b1 " + m.se.toFixed(1), "eval"));
        if (m.grn) li.appendChild(el("code", " " + m.grn));
        $("best-moves").appendChild(li);
      });
      $("analysis-board").innerHTML = d.svg;
    }, function (err) { $("analysis-status").textContent = err.message || String(err); });
  }
  function analyseGame() {
    $("analysis-status").textContent = "analysing the game\u2026";
    api("POST", "/api/games/" + S.id + "/analyse", {level: $("level").value}).then(function (t) {
      var poll = function () {
        api("GET", "/api/tasks/" + t.task).then(function (d) {
          if (d.state === "running") { setTimeout(poll, 1000); return; }
          if (d.state === "failed") { $("analysis-status").textContent = "the analysis failed: " + d.error; return; }
          $("analysis-status").textContent = "analysed: the review is kept with game " + d.id + "; opening it";
          location.assign(d.view);
        }, function (err) { $("analysis-status").textContent = err.message || String(err); });
      };
      setTimeout(poll, 500);
    }, function (err) { $("analysis-status").textContent = err.message || String(err); });
  }
  var redoTurn = null;
  function redo() {
    var again = redoTurn;
    if (!again) return;
    post("play", {text: again.text}).then(function (data) {
      if (data) notice("Turn " + again.n + " is back.", $("game-buttons"));
    });
  }
  function lineAddresses() { return S.moves.turns.map(function (t) { return t.address; }); }
  function step(delta) {
    var list = lineAddresses(), i = list.indexOf(S.address);
    var start = S.moves.parent !== null ? S.moves.parent : "0";
    if (delta < 0) openGame(S.id, i <= 0 ? start : list[i - 1]);
    else if (i + 1 < list.length) openGame(S.id, list[i + 1]);
  }

  function start() {
    api("GET", "/api/meta").then(function (m) {
      meta = m;
      m.games.forEach(function (g) {
        [$("search").elements.game, $("newgame").elements.game].forEach(function (s) { s.appendChild(new Option(g.title, g.name)); });
      });
      $("newgame").elements.date.value = m.today;
      describeGame();
      var h = new URLSearchParams(location.hash.slice(1));
      if (h.get("game")) {
        picked = []; autoAt = []; preview = null;
        try { picked = JSON.parse(h.get("picked") || "[]"); } catch (e) { picked = []; }
        load(h.get("game"), h.get("at") || "end").then(function () {
          if (!S && picked.length) { picked = []; load(h.get("game"), h.get("at") || "end"); }
        });
      }
      else { show("archive"); search(); }
    }, fail);
    ["!", "?", "!!", "??", "!?", "?!"].forEach(function (g) { $("note").elements.glyph.appendChild(new Option(g, g)); });
    $("to-archive").addEventListener("click", function () {
      location.hash = ""; S = null; watching = null; notice(""); show("archive"); search();
    });
    $("to-new").addEventListener("click", function () { status(""); show("new"); });
    $("search").addEventListener("submit", search);
    $("import").addEventListener("submit", importFile);
    $("newgame").addEventListener("submit", newGame);
    $("newgame").elements.game.addEventListener("change", describeGame);
    $("newgame").elements.count.addEventListener("change", playerRows);
    $("confirm").addEventListener("click", function () { post("play", {picked: picked}); });
    $("bot-again").addEventListener("click", function () { if (S && S.bot_to_move && !botPlaying) playBots(); });
    $("back").addEventListener("click", back);
    $("undo").addEventListener("click", function () {
      var t = S.moves.turns.filter(function (x) { return x.address === S.address; })[0];
      post("undo", {}).then(function (data) {
        if (!data || !t) return;
        /* what was taken back is said, and can be put back (R353) */
        redoTurn = {text: t.grn.split(" ").slice(2).join(" "), n: t.n};
        $("redo").hidden = false;
        notice("Took back turn " + t.n + " (" + t.player + ": " + t.words + ").", $("game-buttons"),
               "Redo turn " + t.n, redo);
      });
    });
    $("redo").addEventListener("click", redo);
    $("fork").addEventListener("click", function () {
      /* a fork asks first and says where the recording goes (R354) */
      var here = S.moves.turns.filter(function (x) { return x.address === S.address; })[0];
      $("fork-what").textContent = "Copy game " + S.id + (here ? " up to turn " + here.n : " before its first turn") +
        " into a new game, and record there from now on? Game " + S.id + " stays as it is.";
      $("fork-ask").hidden = false;
      $("fork-yes").focus();
    });
    $("fork-no").addEventListener("click", function () { $("fork-ask").hidden = true; });
    $("fork-yes").addEventListener("click", function () {
      var from = S.id, here = S.moves.turns.filter(function (x) { return x.address === S.address; })[0];
      $("fork-ask").hidden = true;
      api("POST", "/api/games/" + from + "/fork", {at: S.address}).then(function (d) {
        picked = []; autoAt = []; preview = null;
        return fetchState(d.id, "end", []).then(function (data) {
          shown(data);
          notice("Recording into game " + d.id + " now: a copy of game " + from + (here ? " up to turn " + here.n : "") +
                 ". Game " + from + " is unchanged.", $("title"), "Back to game " + from, function () {
                   notice(""); openGame(from, "end");
                 });
        });
      }, function (err) { fail(err, $("game-buttons")); });
    });
    $("typed").addEventListener("submit", function (e) {
      e.preventDefault(); var t = e.target.elements.text; post("play", {text: t.value}).then(function () { t.value = ""; });
    });
    $("note").addEventListener("submit", function (e) {
      e.preventDefault(); var f = e.target.elements, p = Promise.resolve();
      if (f.comment.value) p = post("note", {comment: f.comment.value});
      p.then(function () { if (f.glyph.value) return post("note", {glyph: f.glyph.value}); })
       .then(function () { f.comment.value = ""; f.glyph.value = ""; });
    });
    $("start").addEventListener("click", function () { openGame(S.id, S.moves.parent !== null ? S.moves.parent : "0"); });
    $("end").addEventListener("click", function () { var l = lineAddresses(); openGame(S.id, l.length ? l[l.length - 1] : "0"); });
    $("prev").addEventListener("click", function () { step(-1); });
    $("evaluate").addEventListener("click", evaluateHere);
    $("hint").addEventListener("click", hint);
    $("take-back").addEventListener("click", takeBack);
    $("analyse-game").addEventListener("click", analyseGame);
    $("next").addEventListener("click", function () { step(1); });
    $("share").addEventListener("click", function () {
      api("GET", "/api/games/" + S.id + "/share").then(function (d) { $("share-link").textContent = location.origin + d.path; }, fail);
    });
  }
  start();
})();
