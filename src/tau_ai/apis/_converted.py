"""ConvertedList: the wire messages of a request as a converter builds them, one at a time.

A converter appends items and may replace the last one (merging a tool result into the user
turn before it, adding images to it); it never changes an item once another follows it. So a
list that keeps growing across requests can hold every item but the last as its encoded JSON
(an ``orjson.Fragment``, embedded verbatim when the body is encoded): the next request then
encodes only what is new, and the session's history is kept as bytes rather than dicts.

``ConvertedItems`` is what every API's converter shares (its items, their count, seeding), and
``convert_all`` an API's whole-context conversion with its converter.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import orjson

from tau_ai.body_encoding import Part, Spliced, encode_body

if TYPE_CHECKING:
    from tau_agent.messages import LlmMessage
    from tau_ai.wire_api import MessageConverter

Json = dict[str, Any]
Item = Json | orjson.Fragment | Spliced  # Spliced: a checkpoint's run of items (seed)
Keep = Callable[[memoryview], Part]  # where a folded run's bytes are kept
_dumps, _Fragment, _NON_STR_KEYS = orjson.dumps, orjson.Fragment, orjson.OPT_NON_STR_KEYS


def freeze(item: Json) -> Item:
    """``item`` as its encoded JSON (``encode_body``), or ``item`` itself if it holds
    something JSON cannot say: that one then fails where the whole body is encoded."""
    try:
        encoded = orjson.dumps(item, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        try:
            encoded = encode_body(item)
        except TypeError:
            return item
    # orjson's result sits in a buffer of at least 4 KiB; a copy keeps only its length.
    return orjson.Fragment(memoryview(encoded).tobytes())


def thaw(item: orjson.Fragment) -> Json:
    """The value of a frozen item (a new dict each time)."""
    encoded = orjson.dumps(item)
    try:
        value = orjson.loads(encoded)
    except orjson.JSONDecodeError:  # the escape of a lone surrogate, or an int beyond 64 bits
        value = json.loads(encoded)
    assert isinstance(value, dict)
    return value


class ConvertedList:
    """Items in order; with ``frozen``, all but the last are kept encoded.

    A frozen list encodes its items lazily: an item stays a dict until ``items()`` is asked for
    or a ``fold`` takes it, and a fold encodes its whole run in one call, so a long history
    folded as it is converted never pays for a fragment per item."""

    __slots__ = ("_frozen", "_items", "_settled")

    def __init__(self, frozen: bool) -> None:
        self._frozen = frozen
        self._items: list[Item] = []
        self._settled = 0  # the items before this one are frozen (or cannot be)

    @classmethod
    def seeded(cls, items: list[Item]) -> ConvertedList:
        """A frozen list starting with ``items`` (another list's ``items()``, possibly read
        back from disk), as that list was: more items can follow."""
        seeded = cls(True)
        seeded._items = [freeze(i) if isinstance(i, dict) else i for i in items[:-1]] + items[-1:]
        seeded._settled = max(len(items) - 1, 0)
        return seeded

    def copy(self) -> ConvertedList:
        twin = ConvertedList(self._frozen)
        twin._items = list(self._items)
        twin._settled = self._settled
        return twin

    def __len__(self) -> int:
        return len(self._items)

    @property
    def last(self) -> Json | None:
        """The last item (never frozen), or None while empty."""
        if not self._items:
            return None
        last = self._items[-1]
        if isinstance(last, orjson.Fragment):  # a seeded list's last item: read, never changed
            return thaw(last)
        if isinstance(last, Spliced):  # a checkpoint always ends in an item of its own
            raise ValueError("a run of items cannot be read back as the last item")
        return last

    def append(self, item: Json) -> None:
        self._items.append(item)

    def replace_last(self, item: Json) -> None:
        self._items[-1] = item

    def _settle(self) -> None:
        """Freeze the items not frozen yet, all but the last."""
        items, end = self._items, len(self._items) - 1
        if not self._frozen or self._settled >= end:
            return
        for at in range(self._settled, end):
            item = items[at]
            if type(item) is dict:  # freeze's usual case inline: a call per item of a history
                try:
                    encoded = _dumps(item, option=_NON_STR_KEYS)
                except TypeError:
                    items[at] = freeze(item)
                else:
                    items[at] = _Fragment(memoryview(encoded).tobytes())
            elif isinstance(item, dict):
                items[at] = freeze(item)
        self._settled = end

    def fold(self, start: int, end: int, keep: Keep | None = None) -> int:
        """Make the items ``start`` to ``end`` (exclusive), all but the last of the list, one
        ``Spliced`` run of their JSON, comma-separated, as a checkpoint keeps them: a request's
        body and the next checkpoint then take the run's bytes as they are, not a copy of every
        item. ``keep`` says where the run's bytes go (``SpillFile.keep``); by default they stay
        in memory. Returns how many items fewer the list holds (0 if any of them is neither a
        Fragment nor a dict JSON can say as it is)."""
        run = self._items[start:end]
        if len(run) < 2 or not set(map(type, run)) <= {_Fragment, dict}:  # at C speed
            return 0
        try:
            data = _dumps(run, option=_NON_STR_KEYS)
        except TypeError:  # an item that only freeze can say, or none can: left as items
            self._settle()
            return 0
        self._items[start:end] = [Spliced(data[1:-1] if keep is None else keep(memoryview(data)[1:-1]))]
        fewer = len(run) - 1
        if self._settled >= end:
            self._settled -= fewer
        elif self._settled > start:
            self._settled = start + 1
        return fewer

    def items(self) -> list[Item]:
        """A new list of the items (frozen ones as Fragments)."""
        self._settle()
        return list(self._items)


class ConvertedItems:
    """The part of a ``MessageConverter`` every API shares: the items in a ``ConvertedList``
    (``_out``), their count, ``items()`` and ``seed``. A converter adds ``add``, ``messages``
    and ``copy``, and ``_seeded`` when it holds state tied to the items a seed replaces."""

    __slots__ = ("_out",)

    def __init__(self, frozen: bool) -> None:
        self._out = ConvertedList(frozen)

    def __len__(self) -> int:
        return len(self._out._items)  # (the cache asks twice per user message of a history)

    def items(self) -> list[Item]:
        """What was converted so far, without this API's finishing touches (``messages()``
        adds them: a cache mark, pending images)."""
        return self._out.items()

    def seed(self, items: list[Item]) -> None:
        """Continue from ``items``: see ``MessageConverter.seed``."""
        self._out = ConvertedList.seeded(items)
        self._seeded()

    def fold(self, start: int, end: int, keep: Keep | None = None) -> int:
        """See ``MessageConverter.fold``."""
        fewer = self._out.fold(start, end, keep)
        if fewer:
            self._folded(end, fewer)
        return fewer

    def _seeded(self) -> None:
        """Forget what was tied to the items before the seed (nothing, unless overridden)."""

    def _folded(self, end: int, fewer: int) -> None:
        """Items from ``end`` on moved ``fewer`` places forward: move what points at them
        (nothing, unless overridden)."""


def convert_all(converter: MessageConverter, messages: Iterable[LlmMessage]) -> list[Any]:
    """``messages`` converted by ``converter`` (a new one): the API's whole-context conversion."""
    for message in messages:
        converter.add(message)
    return converter.messages()
