r"""A turn's choices as a tree: what may be chosen next, given the words chosen so far.

Each game defines the tree once (:meth:`grn.rules.ruleset.Ruleset.choice_point`,
in its plug-in package): given the words chosen so far in the turn, the next
choice point (a :class:`Step`: a question and its :class:`Option`\ s) or the
whole turn (a leaf: ``Step.actions``).  A draw the player does not choose (a
tile, a token's face, a card's face) is a *chance* point (``Step.chance``
names the pool it is drawn from: ``bag``, ``tokens``, ``cards``), as
OpenSpiel's ``is_chance_node`` marks one.  Every option comes from the rules
engine, so the words offered can only make a legal turn.

The users of the tree are generic walkers, here in the core:

* the recorder (``grn serve``) walks one path, a tap a step
  (:meth:`grn.rules.ruleset.Ruleset.turn_step`); the words chosen so far are the
  whole state of the turn being entered, so the server keeps nothing between
  two taps, and a word that was not offered is refused (:class:`ChoiceError`);
* the bots and the engine protocol's legal-move list take every leaf, a
  world's own outcome at each chance point (:func:`leaves`,
  :meth:`grn.rules.world.World.tree_moves`);
* the editor's completion offers the commands that may come next after the
  commands written (:func:`next_commands`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Final, Iterator, Protocol, Sequence, TypeVar

from grn.core.value import Value

if TYPE_CHECKING:
    from grn.rules.engine import Engine

#: The engine a tree is asked about (the tree's game's own state class).
E = TypeVar("E", bound="Engine")
#: The same, as a protocol's parameter (a tree of a game's engine takes only that engine).
E_in = TypeVar("E_in", bound="Engine", contravariant=True)


class ChoiceTree(Protocol[E_in]):
    """What the walkers ask of a game: its tree of choices and the words of its commands.

    A :class:`grn.rules.ruleset.Ruleset` is one; the walkers name only this much, so that the contract, which
    offers them as its defaults, and this module are not in a circle.
    """

    def choice_point(self, engine: E_in, chosen: Sequence[str],
                     memo: dict[Any, Any] | None = None) -> "Step | None": ...

    def choice_words(self, command: Value) -> tuple[str, ...]: ...

    def command_word(self, command: Value) -> str: ...

    def action_words(self, command: Value) -> str: ...


class ChoiceError(ValueError):
    """A word that the step it was given at did not offer (a stale or forged request)."""


class Option(Value):
    """One thing that may be chosen at a step.

    ``word`` is what the page sends back (unique within its step), ``label`` the
    choice in words, ``markup`` where it lies on the board as diagram markup
    arguments (``highlight 2,0``, ``highlight 2,0:N``, ``ghost 17@2,0:90``; empty:
    nowhere), ``count`` how many are left (a tile in the bag), ``picture`` the
    id of a piece of art the ruleset can draw alone (a tile), or None.
    ``command`` is the command choosing it adds to the turn, as the notation
    writes it (a follower, a placement once its rotation is chosen), or None
    when it adds none by itself (a tile drawn, a square, "no follower", a face):
    the editor offers the options that have one (:func:`next_commands`).
    """

    __slots__ = ("word", "label", "markup", "count", "picture", "command")
    _fields = ("word", "label", "markup", "count", "picture", "command")

    def __init__(self, word: str, label: str, markup: str = "", count: int | None = None,
                 picture: str | None = None, command: Value | None = None) -> None:
        self.word: Final = word
        self.label: Final = label
        self.markup: Final = markup
        self.count: Final = count
        self.picture: Final = picture
        self.command: Final = command

    def _key(self) -> tuple[object, ...]:
        return (self.word, self.label, self.markup, self.count, self.picture, self.command)

    def to_json(self) -> dict[str, Any]:
        """The option as plain data for the page."""
        return {"word": self.word, "label": self.label, "markup": self.markup, "count": self.count,
                "picture": self.picture}

    def __repr__(self) -> str:
        return f"<Option {self.word} {self.label!r}>"


class Step(Value):
    """The next choice of a turn being entered: a question and its options, or the finished turn.

    When ``actions`` is set the words chosen make a whole legal turn (the
    commands to play) and ``options`` is empty; ``summary`` says the turn in words.
    ``scene`` is markup drawn on the board at this step besides the options
    (the tile placed so far, as a ghost).  ``chance`` names the pool the
    answer is drawn from when the player does not choose it (``bag``: the tile
    drawn; ``tokens``, ``cards``: a face turned up), None when the player does;
    the pools are those of :meth:`grn.rules.ruleset.Ruleset.unseen`.
    """

    __slots__ = ("prompt", "options", "actions", "summary", "scene", "chance")
    _fields = ("prompt", "options", "actions", "summary", "scene", "chance")

    def __init__(self, prompt: str, options: tuple[Option, ...] = (), actions: tuple[Value, ...] | None = None,
                 summary: str = "", scene: tuple[str, ...] = (), chance: str | None = None) -> None:
        self.prompt: Final = prompt
        self.options: Final = options
        self.actions: Final = actions
        self.summary: Final = summary
        self.scene: Final = scene
        self.chance: Final = chance

    def _key(self) -> tuple[object, ...]:
        return (self.prompt, self.options, self.actions, self.summary, self.scene, self.chance)

    @property
    def done(self) -> bool:
        """The words chosen make a whole turn."""
        return self.actions is not None

    def option(self, word: str) -> Option:
        """The option ``word`` names; :class:`ChoiceError` when this step does not offer it."""
        for o in self.options:
            if o.word == word:
                return o
        raise ChoiceError(f"{word!r} is not a choice here ({self.prompt})")

    def __repr__(self) -> str:
        if self.actions is not None:
            return f"<Step done {self.summary!r}>"
        return f"<Step {self.prompt!r} {len(self.options)} options>"


def finished(actions: tuple[Value, ...], summary: str, prompt: str = "Confirm the turn",
             scene: tuple[str, ...] = ()) -> Step:
    """The step of a whole turn: nothing more to choose, ``actions`` to play."""
    return Step(prompt, (), actions, summary, scene)


#: What a walker does at a chance point: the words of the outcomes to follow, given the point and the words
#: chosen before it (None: every outcome).
Outcomes = Callable[[Step, Sequence[str]], Sequence[str]]


def leaves(ruleset: ChoiceTree[E], engine: E, outcomes: Outcomes | None = None,
           memo: dict[Any, Any] | None = None) -> Iterator[tuple[tuple[str, ...], tuple[Value, ...]]]:
    """Every whole turn of the player to move in ``ruleset``'s tree at ``engine``: (the words, the commands),
    depth first in the order the tree offers them.  At a chance point only the outcomes ``outcomes`` names
    are followed (default: every one).  ``memo`` is handed to the tree so that what one point computed (a
    tile's placements) serves the points below it; nothing when the game has no tree."""
    memo = {} if memo is None else memo
    first = ruleset.choice_point(engine, (), memo)
    if first is None:
        return
    stack: list[tuple[tuple[str, ...], Step]] = [((), first)]
    while stack:
        path, step = stack.pop()
        if step.actions is not None:
            yield path, step.actions
            continue
        words = [o.word for o in step.options]
        if step.chance is not None and outcomes is not None:
            words = list(outcomes(step, path))
        for word in reversed(words):
            chosen = (*path, word)
            after = ruleset.choice_point(engine, chosen, memo)
            if after is not None:
                stack.append((chosen, after))


def turns(ruleset: ChoiceTree[E], engine: E, outcomes: Outcomes | None = None) -> list[tuple[Value, ...]]:
    """The commands of every leaf of the tree (:func:`leaves`)."""
    return [actions for _, actions in leaves(ruleset, engine, outcomes)]


def next_commands(ruleset: ChoiceTree[E], engine: E, written: Sequence[Value],
                  word: str) -> list[tuple[str, str, str]]:
    """What an editor may offer after the commands ``written`` of a turn, ``word`` typed so far: the tree's
    point after the words of ``written`` (:meth:`grn.rules.ruleset.Ruleset.choice_words`) and what may be written
    there.  An option that adds a command is offered as that command; a drawn piece the writer names (an
    option of a chance point with a count, a tile id) is offered as a word to complete, and once it is typed
    (``word`` starts with it) the commands below it (every placement of that tile).  Nothing when the commands
    written leave the tree (the diagnostics say why).  Each as (text, detail, kind), the parts of a
    :class:`grn.rules.ruleset.Suggestion`."""
    memo: dict[Any, Any] = {}
    path: list[str] = []
    for command in written:
        path += ruleset.choice_words(command)
    try:
        step = ruleset.choice_point(engine, tuple(path), memo)
    except ChoiceError:
        return []
    if step is None or step.actions is not None:
        return []
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()

    def offer(point: Step, chosen: tuple[str, ...], typed: str, depth: int) -> None:
        for o in point.options:
            if o.command is not None:
                text = ruleset.command_word(o.command)
                if text not in seen:
                    seen.add(text)
                    out.append((text, ruleset.action_words(o.command), "placement" if depth else "action"))
                continue
            named = point.chance is not None and o.count is not None
            rest = typed[len(o.word):] if named and typed.startswith(o.word) else None
            if depth or (rest is not None and (not rest or not rest[0].isalnum())):
                try:
                    below = ruleset.choice_point(engine, (*chosen, o.word), memo)
                except ChoiceError:
                    continue
                # a drawn piece that fits nowhere leads to the next draw: the editor does not guess on
                if below is not None and below.actions is None and below.chance is None and depth < 3:
                    offer(below, (*chosen, o.word), "", depth + 1)
        if depth == 0:
            for o in point.options:
                named = o.command is None and point.chance is not None and o.count is not None
                if named and (not typed or typed.isalnum()):
                    out.append((o.word, f"{o.count} left in the {point.chance}", "tile"))

    offer(step, tuple(path), word, 0)
    return out
