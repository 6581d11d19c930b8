"""Recording a turn by choosing: what a ruleset offers at each step of a turn being entered.

A page that records a game at the table (``grn serve``) never builds commands
itself: it asks the game's ruleset, step by step, what may be chosen next
(:meth:`grn.rules.ruleset.Ruleset.turn_step`), and the ruleset answers from its rules
engine.  The words chosen so far are the whole state of the turn being
entered, so the server keeps nothing between two taps and an illegal turn
cannot be put together: a word that was not offered is refused.
"""

from __future__ import annotations

from typing import Any, Final

from grn.core.value import Value


class ChoiceError(ValueError):
    """A word that the step it was given at did not offer (a stale or forged request)."""


class Option(Value):
    """One thing that may be chosen at a step.

    ``word`` is what the page sends back (unique within its step), ``label`` the
    choice in words, ``markup`` where it lies on the board as diagram markup
    arguments (``highlight 2,0``, ``highlight 2,0:N``, ``ghost 17@2,0:90``; empty:
    nowhere), ``count`` how many are left (a tile in the bag), ``picture`` the
    id of a piece of art the ruleset can draw alone (a tile), or None.
    """

    __slots__ = ("word", "label", "markup", "count", "picture")
    _fields = ("word", "label", "markup", "count", "picture")

    def __init__(self, word: str, label: str, markup: str = "", count: int | None = None,
                 picture: str | None = None) -> None:
        self.word: Final = word
        self.label: Final = label
        self.markup: Final = markup
        self.count: Final = count
        self.picture: Final = picture

    def _key(self) -> tuple[object, ...]:
        return (self.word, self.label, self.markup, self.count, self.picture)

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
    (the tile placed so far, as a ghost).
    """

    __slots__ = ("prompt", "options", "actions", "summary", "scene")
    _fields = ("prompt", "options", "actions", "summary", "scene")

    def __init__(self, prompt: str, options: tuple[Option, ...] = (), actions: tuple[Any, ...] | None = None,
                 summary: str = "", scene: tuple[str, ...] = ()) -> None:
        self.prompt: Final = prompt
        self.options: Final = options
        self.actions: Final = actions
        self.summary: Final = summary
        self.scene: Final = scene

    def _key(self) -> tuple[object, ...]:
        return (self.prompt, self.options, self.actions, self.summary, self.scene)

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


def finished(actions: tuple[Any, ...], summary: str, prompt: str = "Confirm the turn",
             scene: tuple[str, ...] = ()) -> Step:
    """The step of a whole turn: nothing more to choose, ``actions`` to play."""
    return Step(prompt, (), actions, summary, scene)
