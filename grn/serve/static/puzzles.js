/* The Puzzles page of grn serve: the next puzzle near the solver's rating, answered on the shared puzzle board
   (puzzleboard.js: the legal squares of the tile in hand, then a rotation, or a move); the server judges the
   answer and moves both ratings. */
(function () {
  "use strict";
  var solver = localStorage.getItem("grn-solver") || "", current = null, started = 0, done = false;
  function $(id) { return document.getElementById(id); }
  function api(method, path, body) {
    var opts = {method: method, headers: {}, credentials: "same-origin"};
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    return fetch(path, opts).then(function (r) {
      return r.json().then(function (d) { if (!r.ok) throw new Error(d.error || r.statusText); return d; });
    });
  }
  function say(text, cls) { $("verdict").textContent = text; $("verdict").className = cls || ""; }
  function judge(text) {
    if (done || !current) return;
    done = true;
    api("POST", "/api/puzzles/" + encodeURIComponent(current.id) + "/attempt",
        {solver: solver, answer: text, seconds: (Date.now() - started) / 1000}).then(function (a) {
      var gain = a.by === "win" ? "" : (a.gain >= 0 ? "+" : "") + a.gain.toFixed(1) + " \u00b1 " + a.gain_se.toFixed(1) + " points";
      say((a.solved ? "Solved: " : "Not this one (" + text + "). ") + "The solution: " + a.solution + " (" + a.words +
          ")" + (gain ? ": " + gain + " over the next best move" : "") + "." +
          (a.themes.length ? " Themes: " + a.themes.join(", ") + "." : "") +
          " Your rating: " + a.solver.before.rating + " \u2192 " + a.solver.after.rating + ".",
          a.solved ? "right" : "wrong");
      $("rotations").innerHTML = ""; $("next").hidden = false;
    }).catch(function (e) { done = false; say(e.message, "wrong"); });
  }
  function show(p) {
    current = p; done = false; started = Date.now();
    $("next").hidden = true; say("");
    $("question").textContent = p.question + " (puzzle rated " + p.rating + ")";
    grnPuzzleBoard.offer(p, $("board"), $("rotations"), $("choices"), judge);  /* puzzleboard.js */
  }
  function next() {
    api("GET", "/api/puzzles/next?solver=" + encodeURIComponent(solver)).then(function (d) {
      $("rating").textContent = solver + ": rating " + d.solver.rating + " \u00b1 " + d.solver.deviation;
      if (d.puzzle) show(d.puzzle);
      else { current = null; $("board").innerHTML = ""; $("question").textContent = "No puzzle left to try."; }
    }).catch(function (e) { say(e.message, "wrong"); });
  }
  $("solver").value = solver;
  $("who").addEventListener("submit", function (ev) {
    ev.preventDefault();
    solver = $("solver").value.trim();
    if (!solver) return;
    localStorage.setItem("grn-solver", solver);
    next();
  });
  $("next").addEventListener("click", next);
  if (solver) next();
})();
