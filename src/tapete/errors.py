"""The exceptions tapete raises, all of them ``ValueError``.

A game never half-applies bad input: whatever raises leaves every state, view and record as it was.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "RecordError",
    "SpecError",
]


class InvalidActionError(ValueError):
    """Text that is not an action (or a card) in the game's notation, or a value that is no
    action at all (None, a float)."""


class IllegalActionError(ValueError):
    """A well-formed action that a rule forbids at this moment.

    ``rule`` is a stable code (``must-follow-suit``, ``hook``, ``not-your-turn`` ...) that tests,
    the web protocol and translations key on; the message is a sentence naming the rule and the
    facts.

    >>> err = IllegalActionError("must-follow-suit", "must follow suit: oros was led")
    >>> err.rule
    'must-follow-suit'
    >>> str(err)
    'must follow suit: oros was led'
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[str, str]]:
        return (IllegalActionError, (self.rule, self.message))


class SpecError(ValueError):
    """A game spec or parameter that tapete does not accept; the message lists what it does.

    ``param`` names the rule option refused, where one is (a form can point at its field).

    >>> SpecError("deck=52 is not accepted: 40 or 48", param="deck").param
    'deck'
    """

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param

    def __reduce__(self) -> tuple[type[SpecError], tuple[str, str | None]]:
        return (SpecError, (str(self), self.param))


class RecordError(ValueError):
    """A match record that is malformed or does not replay to what it claims."""
