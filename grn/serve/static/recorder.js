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

  function status(text) { $("status").textContent = text || ""; }
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
        if (!r.ok) throw new Error(data.error || ("error " + r.status));
        return data;
      });
    });
  }
  function fail(err) { status(err.message || String(err)); }
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
  function describeGame() {
    var g = gameMeta($("newgame").elements.game.value);
    $("colours").textContent = g ? g.min + " to " + g.max + " players; colours: " + g.colours.join(", ") : "";
    $("options-help").textContent = g ? "options: " + g.options : "";
  }
  function newGame(ev) {
    ev.preventDefault();
    var f = $("newgame").elements;
    api("POST", "/api/games", {game: f.game.value, players: f.players.value, options: f.options.value,
                               event: f.event.value, site: f.site.value, date: f.date.value})
      .then(function (d) { openGame(d.id, "0"); }, fail);
  }

  /* ---- recording ---- */
  function openGame(id, at) {
    picked = []; preview = null;
    load(id, at);
  }
  function load(id, at) {
    var q = new URLSearchParams({at: at, picked: JSON.stringify(picked)});
    if (preview) q.set("preview", preview);
    return api("GET", "/api/games/" + id + "?" + q).then(function (data) {
      S = data; render(); status("");
      location.hash = "game=" + id + "&at=" + encodeURIComponent(data.address);
    }, fail);
  }
  function post(path, body) {
    body.at = S.address; body.base = S.base;
    return api("POST", "/api/games/" + S.id + "/" + path, body).then(function (data) {
      S = data; picked = []; preview = null; render(); status("");
      location.hash = "game=" + S.id + "&at=" + encodeURIComponent(S.address);
    }, fail);
  }
  function choose(word) {
    picked.push(word); preview = null;
    load(S.id, S.address);
  }
  function render() {
    show("record");
    $("title").textContent = S.title + ": " + S.seats.map(function (s) { return s.name + " (" + s.key + ")"; }).join(", ");
    var sc = $("scores").tBodies[0]; sc.textContent = "";
    S.seats.forEach(function (s) {
      var tr = el("tr"); tr.appendChild(el("td", s.name + " (" + s.key + ")"));
      tr.appendChild(el("td", S.scores[s.key] + (S.final ? " (final " + S.final[s.key] + ")" : "")));
      sc.appendChild(tr);
    });
    var step = S.step, box = $("options");
    box.textContent = "";
    $("confirm").hidden = true; $("summary").textContent = "";
    $("back").hidden = picked.length === 0;
    if (S.over) $("prompt").textContent = "The game is over.";
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
        box.appendChild(b);
      });
      if (step.done) {
        $("summary").textContent = step.summary;
        $("confirm").hidden = false;
        $("confirm").focus();
      } else if (box.firstChild && document.activeElement === document.body) box.firstChild.focus();
    }
    $("board").innerHTML = S.svg;
    var marks = $("board").querySelectorAll(".markup-layer .highlight");
    var ghosts = step && step.options.length && step.options.every(function (o) { return o.markup.indexOf("ghost ") === 0; });
    if (step) step.options.forEach(function (o) {
      if (o.mark < 0 || !marks[o.mark]) return;
      var m = marks[o.mark];
      m.setAttribute("data-word", o.word);
      m.addEventListener("click", function () { choose(o.word); });
    });
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
          $("analysis-status").textContent = "analysed: game " + d.id + " holds the review; opening it";
          location.assign(d.view);
        }, function (err) { $("analysis-status").textContent = err.message || String(err); });
      };
      setTimeout(poll, 500);
    }, function (err) { $("analysis-status").textContent = err.message || String(err); });
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
      if (h.get("game")) openGame(h.get("game"), h.get("at") || "end");
      else { show("archive"); search(); }
    }, fail);
    ["!", "?", "!!", "??", "!?", "?!"].forEach(function (g) { $("note").elements.glyph.appendChild(new Option(g, g)); });
    $("to-archive").addEventListener("click", function () { location.hash = ""; show("archive"); search(); });
    $("to-new").addEventListener("click", function () { show("new"); });
    $("search").addEventListener("submit", search);
    $("import").addEventListener("submit", importFile);
    $("newgame").addEventListener("submit", newGame);
    $("newgame").elements.game.addEventListener("change", describeGame);
    $("confirm").addEventListener("click", function () { post("play", {picked: picked}); });
    $("back").addEventListener("click", function () { picked.pop(); preview = null; load(S.id, S.address); });
    $("undo").addEventListener("click", function () { post("undo", {}); });
    $("fork").addEventListener("click", function () {
      api("POST", "/api/games/" + S.id + "/fork", {at: S.address}).then(function (d) {
        status("a new game, number " + d.id + ", goes on from here"); openGame(d.id, "end");
      }, fail);
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
    $("analyse-game").addEventListener("click", analyseGame);
    $("next").addEventListener("click", function () { step(1); });
    $("share").addEventListener("click", function () {
      api("GET", "/api/games/" + S.id + "/share").then(function (d) { $("share-link").textContent = location.origin + d.path; }, fail);
    });
  }
  start();
})();
