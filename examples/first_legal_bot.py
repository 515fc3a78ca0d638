#!/usr/bin/env python3
"""A tapete outside bot: plays any tapete game by answering the first legal action.

Standard library only. Run it in a match with

    tapete play pocha --seats 'exec(cmd="python3 examples/first_legal_bot.py"),medium,medium,medium'

It speaks the tapete-bot/1 protocol (docs/bot-protocol.md): one JSON message a line on stdin,
its answers on stdout, its notes on stderr. Replace ``decide`` with your own strategy: the view
is the seat's table (its hand, the trick, bids, scores ...), ``legal`` the actions it may take.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def decide(view: dict[str, Any], legal: list[str]) -> str:
    """The action to take: here the first legal one (the bids and cards come in order)."""
    return legal[0]


def main() -> int:
    for line in sys.stdin:  # ends when tapete closes our input: then we exit too
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message["version"] != 1:
                print(f"first_legal_bot: protocol version {message['version']}?", file=sys.stderr)
                return 1
            print("ready first_legal_bot", flush=True)
        elif kind == "decide":
            print(decide(message["view"], message["legal"]), flush=True)
        elif kind == "error":
            print(f"first_legal_bot: tapete says {message['message']}", file=sys.stderr)
        elif kind == "quit":
            return 0
        # start, end and any type a later version adds need no answer
    return 0


if __name__ == "__main__":
    sys.exit(main())
