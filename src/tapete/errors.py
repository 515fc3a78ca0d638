"""The exceptions tapete raises, all of them ``ValueError``.

A game never half-applies bad input: whatever raises leaves every state, view and record as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "IllegalActionError",
    "InvalidActionError",
    "Phrase",
    "PhrasedError",
    "RecordError",
    "SpecError",
    "one_of",
    "quoted",
]


class InvalidActionError(ValueError):
    """Text that is not an action (or a card) in the game's notation, or a value that is no
    action at all (None, a float).

    A message longer than ``MESSAGE_MOST`` characters (it quotes the text refused, which may be
    of any size) keeps its start and its end, where the reason is, and says how long it was:
    a refusal is a line. A line a person can type at the prompt (200 characters at most) is
    quoted whole, with the whole of the notation's explanation after it.

    >>> said = str(InvalidActionError(f"{'x' * 5000!r} is not a card"))
    >>> len(said), "… (5016 characters) …" in said, said.endswith("xxx' is not a card")
    (181, True, True)
    """

    def __init__(self, message: str) -> None:
        if len(message) > MESSAGE_MOST:
            start, end = message[:QUOTED_START], message[-QUOTED_START:]
            message = f"{start}… ({len(message)} characters) …{end}"
        super().__init__(message)


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


class Phrase:
    """Words for people: an English template and the fields that fill it.

    The template is the key of its translations (``tapete.i18n``), so each app says a phrase
    in its person's language (``tapete.i18n.phrase_text``); ``str()`` gives the English. A
    field is a value as it is written (a number, a spec word: never translated) or another
    phrase. A template with no fields is taken as it is: its braces are no placeholders.

    >>> str(Phrase("{low} to {high}", low=3, high=8))
    '3 to 8'
    >>> str(Phrase("{what} (the rules: {n})", what=Phrase("a number of chips"), n=10))
    'a number of chips (the rules: 10)'
    """

    __slots__ = ("fields", "text")

    def __init__(self, text: str, /, **fields: object) -> None:
        self.text = text
        self.fields: dict[str, object] = fields

    def __str__(self) -> str:
        if not self.fields:
            return self.text
        return self.text.format(**{k: str(v) for k, v in self.fields.items()})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and self.text == other.text and self.fields == other.fields

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        fields = "".join(f", {k}={v!r}" for k, v in self.fields.items())
        return f"Phrase({self.text!r}{fields})"

    def __reduce__(self) -> tuple[object, tuple[str, dict[str, object]]]:
        return (_phrase, (self.text, self.fields))


def _phrase(text: str, fields: dict[str, object]) -> Phrase:
    return Phrase(text, **fields)


def one_of(words: Sequence[str | Phrase]) -> str | Phrase:
    """The choices ``words`` as one phrase: ``a, b or c`` (the "or" is translated; a spec word
    is not).

    >>> str(one_of(["tied", "all", "nobody"])), str(one_of(["bank"]))
    ('tied, all or nobody', 'bank')
    """
    if len(words) < 2:
        return words[0] if words else ""
    return Phrase("{rest} or {last}", rest=_listed(words[:-1]), last=words[-1])


def _listed(words: Sequence[str | Phrase]) -> str | Phrase:
    """``a, b, c``: spec words joined as they are, phrases each translated."""
    if all(isinstance(w, str) for w in words):
        return ", ".join(str(w) for w in words)
    if len(words) == 1:
        return words[0]
    return Phrase("{rest}, {last}", rest=_listed(words[:-1]), last=words[-1])


QUOTED_MOST = 240
"""The longest field a refusal quotes whole: a longer one (a schedule of 100,000 hands, a name
typed by a program) is quoted by its first ``QUOTED_START`` characters and its length, so that
the message stays a line, not hundreds of kilobytes. The longest fields tapete words itself (a
game's list of parameters) are shorter."""
QUOTED_START = 80
MESSAGE_MOST = 800
"""The longest refusal of text said whole (``InvalidActionError``): a prompt's longest line,
quoted twice (as an action and as a card), with the notation's explanation."""
CUT = "{start}… ({n} characters)"
"""The template of a field cut short (``quoted``): its translations key on it."""


def quoted(field: object) -> object:
    """``field`` as a refusal quotes it: text up to ``QUOTED_MOST`` characters whole, longer
    text by its start and its length; a phrase with its fields so quoted; anything else as it is.

    >>> quoted("deck=52")
    'deck=52'
    >>> str(quoted("x" * 3000))[-24:]
    'xxxxx… (3000 characters)'
    """
    if isinstance(field, str) and len(field) > QUOTED_MOST:
        return Phrase(CUT, start=field[:QUOTED_START], n=len(field))
    if isinstance(field, Phrase):
        return _quoted_fields(field)
    return field


def _quoted_fields(phrase: Phrase) -> Phrase:
    """``phrase`` with its fields quoted (``quoted``): itself when none is too long."""
    cut = {k: quoted(v) for k, v in phrase.fields.items()}
    if all(cut[k] is v for k, v in phrase.fields.items()):
        return phrase
    return Phrase(phrase.text, **cut)


class PhrasedError(ValueError):
    """An error for people: its message is English, and ``phrase`` holds its template and
    fields, so that an app can say it in its person's language (``tapete.i18n.error_text``).
    Given fields, the message is a template they fill; without any, it is taken as it is.

    A field longer than ``QUOTED_MOST`` characters is quoted by its start and its length
    (``quoted``): a refused value of any size makes a message of a line.
    """

    def __init__(self, message: str | Phrase, /, **fields: object) -> None:
        phrase = message if isinstance(message, Phrase) else Phrase(message, **fields)
        phrase = _quoted_fields(phrase)
        super().__init__(str(phrase))
        self.phrase = phrase


class SpecError(PhrasedError):
    """A game spec or parameter that tapete does not accept; the message lists what it does.

    Said in a person's language as every ``PhrasedError`` is (``tapete.i18n.spec_text``).
    ``param`` names the rule option refused, where one is (a form can point at its field).

    >>> err = SpecError("{name}={value} is not accepted: {accepted}", param="deck",
    ...                 name="deck", value=52, accepted="40 or 48")
    >>> str(err), err.param, err.phrase.text
    ('deck=52 is not accepted: 40 or 48', 'deck', '{name}={value} is not accepted: {accepted}')
    """

    def __init__(
        self, message: str | Phrase, /, param: str | None = None, **fields: object
    ) -> None:
        super().__init__(message, **fields)
        self.param = param

    def __reduce__(self) -> tuple[type[SpecError], tuple[Phrase, str | None]]:
        return (SpecError, (self.phrase, self.param))


class RecordError(PhrasedError):
    """A match record that is malformed or does not replay to what it claims.

    Said in a person's language as every ``PhrasedError`` is (``tapete.i18n.record_text``).

    >>> err = RecordError("{file} is empty, not a record", file="x.json")
    >>> str(err), err.phrase.text
    ('x.json is empty, not a record', '{file} is empty, not a record')
    """

    def __reduce__(self) -> tuple[type[RecordError], tuple[Phrase]]:
        return (RecordError, (self.phrase,))
