"""The salle after a change: what every player sees alike is read and rendered once per change
and language in a process, whatever the number of sockets, and each player still gets exactly
the salle the plain render gives them (their seat, their table, their friends, their language)."""

import re
import uuid
from collections import Counter

import pytest
from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from games import broadcast, selectors, signals
from games.display import fragments, salle_shared
from games.models import Table
from games.services import salle
from tests.games.friends import finish_game
from tests.games.helpers import start_game
from tests.sockets import connect

#: The server's clock in the waiting player's card: read at each render.
SERVER_NOW = re.compile(r' data-server-now="\d+"')


def salle_of_many(cast, make_user) -> dict:
    """A salle with every kind of reader: friends of some seated players (the cast played a
    partie together), a partie in play (« À la une »), open tables, a host, seated players.
    {name: (user, language)} of the readers."""
    ane, bixente, camille, dani = cast
    table = salle.table_create(user=ane, kings=Table.Kings.FOUR)
    for number, user in enumerate(cast[1:], start=1):
        salle.seat_take(user=user, table_id=table.pk, number=number)
    finish_game(start_game(Table.objects.get(pk=table.pk), first_mano=0), cast)
    others = [make_user(f"jugador{n}") for n in range(4)]
    playing = salle.table_create(user=others[0], kings=Table.Kings.FOUR)
    for number, user in enumerate(others[1:], start=1):
        salle.seat_take(user=user, table_id=playing.pk, number=number)
    start_game(Table.objects.get(pk=playing.pk))
    eve, gorka, hote = make_user("eve"), make_user("gorka"), make_user("hote")
    first = salle.table_create(user=bixente, kings=Table.Kings.FOUR)
    salle.seat_take(user=eve, table_id=first.pk, number=1)
    salle.table_create(user=hote, kings=Table.Kings.EIGHT)
    third = salle.table_create(user=make_user("txomin"), kings=Table.Kings.FOUR)
    salle.seat_take(user=dani, table_id=third.pk, number=2)
    return {
        "ane": (ane, "fr"),  # not seated, a friend at two tables
        "gorka": (gorka, "fr"),  # not seated, no friend
        "camille": (camille, "es"),  # not seated, friends
        "dani": (dani, "es"),  # seated at a table not theirs
        "eve": (eve, "eu"),  # seated at bixente's table
        "bixente": (bixente, "en"),  # the host of a table with eve
    }


def plain(user, language: str) -> str:
    """The salle a player's socket would push, rendered whole for them alone."""
    with translation.override(language):
        context = fragments.salle_context(user, reputations=signals.reputations)
        context.update(user=user, pushed=True, nav=0)
        return SERVER_NOW.sub("", render_to_string("games/salle.html#salle", context))


def pushed(user, language: str, change: str) -> str:
    with translation.override(language):
        html, _page = fragments.salle_fragment(
            user, fragments.SalleAsked(change=change), reputations=signals.reputations
        )
    return SERVER_NOW.sub("", html)


@pytest.mark.django_db
def test_every_reader_gets_their_own_salle_from_the_parts_shared(cast, make_user):
    readers = salle_of_many(cast, make_user)
    change = uuid.uuid4().hex
    shared = {name: pushed(user, language, change) for name, (user, language) in readers.items()}
    for name, (user, language) in readers.items():
        assert shared[name] == plain(user, language), name
    assert "<!--friend" not in "".join(shared.values())
    assert shared["ane"].count('class="badge-ami"') == 2  # bixente and dani
    assert 'class="friends-badge"' in shared["camille"]
    assert 'class="badge-ami"' not in shared["gorka"]
    assert 'id="featured"' in shared["gorka"]
    assert "Lancer la partie" not in shared["eve"]


@pytest.fixture
def counted(monkeypatch):
    """Counter of the salle's shared reads and renders: the parties in play, the counts, the
    sections rendered (by section and language)."""
    counts: Counter = Counter()
    playing, salle_counts, section = (
        selectors.playing_games,
        selectors.salle_counts,
        fragments._salle_section,
    )

    def counted_playing(*args, **kwargs):
        counts["playing"] += 1
        return playing(*args, **kwargs)

    def counted_counts(*args, **kwargs):
        counts["counts"] += 1
        return salle_counts(*args, **kwargs)

    def counted_section(name, alike):
        counts[(name, translation.get_language())] += 1
        return section(name, alike)

    monkeypatch.setattr(selectors, "playing_games", counted_playing)
    monkeypatch.setattr(selectors, "salle_counts", counted_counts)
    monkeypatch.setattr(fragments, "_salle_section", counted_section)
    return counts


@pytest.mark.django_db(transaction=True)
async def test_a_salle_change_is_read_and_rendered_once_per_language_whatever_the_sockets(
    cast, make_user, counted
):
    readers = await database_sync_to_async(salle_of_many)(cast, make_user)
    for user, language in readers.values():
        user.language = language
        await database_sync_to_async(user.save)(update_fields=["language"])
    # two tabs of some readers: more sockets than readers, more readers than languages
    tabs = [*readers, "ane", "gorka", "camille"]
    sockets = []
    for name in tabs:
        communicator, connected = await connect(readers[name][0])
        assert connected
        await communicator.receive_from(timeout=5)  # the connect's own render
        sockets.append(communicator)
    counted.clear()
    await database_sync_to_async(broadcast.salle_changed)()
    payloads = [await s.receive_from(timeout=10) for s in sockets]
    after_change = Counter(counted)  # the plain renders below read on their own
    for name, payload in zip(tabs, payloads, strict=True):
        user, language = readers[name]
        expected = await database_sync_to_async(plain)(user, language)
        assert SERVER_NOW.sub("", payload) == expected, name
    languages = {language for _user, language in readers.values()}
    assert after_change["playing"] == 1 and after_change["counts"] == 1
    for section in ("featured", "playing"):
        rendered = {language: after_change[(section, language)] for language in languages}
        assert rendered == dict.fromkeys(languages, 1), section
    # the open tables: once per language and list (the page, the own table left out of it,
    # seated or not): the not seated in fr and es, eve and bixente (en, eu) at one table, dani
    open_tables = {key[1]: n for key, n in after_change.items() if key[0] == "open_tables"}
    assert open_tables == {"fr": 1, "es": 2, "eu": 1, "en": 1}
    assert len(salle_shared.CHANGES) >= 1
    for communicator in sockets:
        await communicator.disconnect()
