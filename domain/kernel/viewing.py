"""Who may see what of a state: the checks every game's ``view`` opens with.

The auditor's view opens once the game is over (or for a historical state of a game that has ended); before a game
is set up there is nothing to show. Once over, or for the auditor, every secret is shown.
"""

from __future__ import annotations

from .errors import ViewUnavailable
from .phrases import say
from .seats import AUDITOR, Viewer


def opened(viewer: Viewer, over: bool, set_up: bool) -> bool:
    """Whether ``viewer`` sees every secret of the state (``over``: the game it belongs to has ended).

    Raises:
        ViewUnavailable: for the auditor while the game runs, or before the game was set up.
    """
    if viewer == AUDITOR and not over:
        raise ViewUnavailable(phrase=say("the audit view opens when the game is over"))
    if not set_up:
        raise ViewUnavailable(phrase=say("the game has not been set up yet"))
    return over or viewer == AUDITOR
