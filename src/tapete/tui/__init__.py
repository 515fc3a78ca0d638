"""tapete at the terminal: a Textual app to play any game against bots and replay records.

``tapete play GAME --seats human,...`` opens the table when a seat is human, ``tapete play`` alone
first asks which game, with which options and seats; ``tapete replay
FILE`` steps through a record with every hand open. The app draws the presenter's tables
(``tapete.present``) and never reads game truth beyond the views; ``tapete.tui.session`` holds
the match as a list of steps, which makes undo a matter of dropping the last ones.

This package is an outer layer: it needs the ``tui`` extra (Textual), and ``import tapete`` never
loads it.
"""

from __future__ import annotations

from tapete.tui.app import NewMatch, PlayConfig, TapeteApp

__all__ = ["NewMatch", "PlayConfig", "TapeteApp"]
