/* The puzzle board of grn's two trainers (the static page of `grn puzzles --html` inlines this file, grn serve's
   Puzzles page loads it): it knows no game.  A tile-laying game's picture marks the legal squares of the tile in
   hand (g.legal[data-xy], data-rotations: the rotations that fit there): tap one, then a rotation when several
   fit.  A game without such squares gets the moves the confirming search weighed as buttons. */
var grnPuzzleBoard = (function () {
  "use strict";
  function answerOf(tile, xy, r) { return tile + "@" + xy + (r === "0" ? "" : ":" + r); }
  function button(text, onClick) {
    var b = document.createElement("button");
    b.textContent = text; b.addEventListener("click", onClick);
    return b;
  }
  /* Draw puzzle p in the board element and offer its answers; judge(text) is called with the answer chosen. */
  function offer(p, board, rotations, choices, judge) {
    board.innerHTML = p.svg; rotations.innerHTML = ""; choices.innerHTML = "";
    var squares = board.querySelectorAll("g.legal[data-xy]");
    if (p.tile && squares.length) {
      Array.prototype.forEach.call(squares, function (g) {
        g.style.cursor = "pointer";
        g.addEventListener("click", function () {
          var xy = g.getAttribute("data-xy"), rots = (g.getAttribute("data-rotations") || "0").split(" ");
          if (rots.length === 1) { judge(answerOf(p.tile, xy, rots[0])); return; }
          rotations.innerHTML = "";
          rots.forEach(function (r) {
            var b = button("turned " + r + "\u00b0", function () { judge(answerOf(p.tile, xy, r)); });
            b.setAttribute("data-rotation", r);
            rotations.appendChild(b);
          });
        });
      });
    } else {
      /* sorted: the order the search weighed them in would give the answer away */
      p.choices.slice().sort().forEach(function (c) { choices.appendChild(button(c, function () { judge(c); })); });
    }
  }
  return {offer: offer};
})();
