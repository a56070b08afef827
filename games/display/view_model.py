"""The view model's inputs and shape: what one viewer's table is built from (`TableFacts`), what
its page adds (`TablePage`), and `View`, the plain dicts the templates read. One value each, so
no builder takes a dozen keywords and forwards them again."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import Observation

#: A view model: plain dicts for the templates.
View = dict[str, Any]


@dataclass(frozen=True)
class TableFacts:
    """One viewer's table: the observation (never the engine state), the names by seat and the
    viewer's seat (None: the public view, drawn from seat 0). `host_seat`: None when the viewer
    hosts; `presence`: {seat: seconds left} of the away seats; `game_clock`: Game.clock, read at
    `now_ms`; `robots`: which seats are computer players; `alike`: a dict kept for one game
    version, where what the two players of a team see alike is built once for both."""

    observation: Observation
    players: list[str]
    viewer_seat: int | None
    host_seat: int | None = None
    presence: Mapping[int, int] | None = None
    team_names: list[str] | None = None
    game_clock: Mapping[str, Any] | None = None
    now_ms: int = 0
    robots: list[bool | str] | None = None
    alike: dict | None = None


@dataclass(frozen=True)
class TablePage:
    """What the page and its forms add to the table: where the forms post, the salle's and the
    socket's URLs, whether the regions go out of band, a message about the game at the top
    (`flash`), and why the viewer's decision was refused (`refusal`, in the panel)."""

    action_url: str
    salle_url: str = "/"
    ws_url: str | None = None
    oob: bool = False
    flash: str | None = None
    refusal: str | None = None
