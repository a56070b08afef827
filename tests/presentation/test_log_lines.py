"""The hand's log and the words said aloud, built from lines written once per word, speaker and
language (vocabulary.word_sentences) and from the words' runs (table_view.log_runs), say what
the word-by-word build said; the parts written once (core.jinja's cached_macro and
json_attribute, the hand-log region's parts, the declarations) write the bytes they replace.
docs/languages.md, "Cost"."""

from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from core import jinja, translations
from games import engine, vocabulary
from games.display import answers, table_view
from games.display.clocks import timed_out_text
from games.engine.random_play import DEFAULT_WEIGHTS
from tests.presentation.table_states import random_parties

LANGUAGES = ("fr", "es", "eu", "en")
PLAYERS = ["Ane", "Bixente", "Camille", "Dani"]


def log_word_by_word(observation, players, teams, by_clock):
    """The log as build_log wrote it before the lines and runs: each word in turn."""
    sections: list[dict] = []

    def section(key):
        if not sections or sections[-1]["key"] != key:
            title = translation.gettext("Mus") if key == "mus" else vocabulary.lance_name(key)
            sections.append({"key": key, "title": title, "lines": [], "deje_lines": []})
        return sections[-1]

    counted = answers.counted_answers(observation["words"], observation["mano"], players)
    for index, word in enumerate(observation["words"]):
        lance = word.get("lance") if word["type"] not in ("mus", "cut", "discard") else None
        line = vocabulary.word_sentence(word, players[word["seat"]])
        lines = section(lance or "mus")["lines"]
        lines.append(timed_out_text(line) if index in by_clock else line)
        if index in counted:
            lines.append(counted[index])
    return sections


def moments():
    for game in random_parties(range(3), every=2, limit=300):
        yield engine.observation(game.state, game.state["version"] % 4)


def test_the_log_from_lines_and_runs_is_the_log_word_by_word():
    checked = 0
    for observation in moments():
        words = observation["words"]
        by_clock = {i for i in range(len(words)) if i % 5 == 3}
        for language in LANGUAGES:
            with translation.override(language):
                teams = list(table_view.team_labels(0, None))
                built = table_view.build_log(observation, PLAYERS, teams, by_clock)
                expected = log_word_by_word(observation, PLAYERS, teams, by_clock)
            # the lances' results come after the words: compare the words' part of each section
            assert [s["key"] for s in built][: len(expected)] == [s["key"] for s in expected]
            for got, want in zip(built, expected, strict=False):
                assert list(got["lines"][: len(want["lines"])]) == want["lines"]
                assert got["title"] == want["title"]
            checked += bool(words)
    assert checked > 100


def test_the_words_said_aloud_are_the_log_lines_with_their_full_stop():
    for observation in moments():
        words = observation["words"]
        for language in LANGUAGES:
            with translation.override(language):
                lines = table_view.word_lines(vocabulary.word_keys(words, PLAYERS), set())
                said = table_view.spoken(lines)
                assert lines == [vocabulary.word_sentence(w, PLAYERS[w["seat"]]) for w in words]
                assert said == [s if s[-1] in ".!?…" else f"{s}." for s in lines]


def test_a_sentence_is_written_once_per_word_and_language_whatever_the_speaker():
    vocabulary._word_sentence.cache_clear()
    word = {"seat": 0, "type": "bet", "lance": "grand", "amount": 7}
    for name in ("Ane", "Bixente", "Camille", "Dani", "Eneko"):
        for language in LANGUAGES:
            with translation.override(language):
                sentence = vocabulary.word_sentence(word, name)
                assert sentence.startswith(name) and "7" in sentence
    assert vocabulary._word_sentence.cache_info().currsize == len(LANGUAGES)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=8))
def test_json_attribute_writes_the_bytes_of_tojson_forceescape(texts):
    reference = jinja.ENV.from_string("{{ t|tojson|forceescape }}").render(t=texts)
    assert jinja.ENV.from_string("{{ t|json_attribute }}").render(t=texts) == reference


#: The hand-log region as its single template wrote it, before it was written from its parts
#: (games.display.hand_log), each section and line once.
REGION_BEFORE = """{% macro log_section(title, lines, deje_lines) %}
  <h3 class="hand-log__section">{{ title }}</h3>
  <ol class="hand-log__lines">{% for line in lines %}<li{% if loop.index0 in deje_lines %} class="hand-log__deje"{% endif %}>{{ line }}</li>{% endfor %}</ol>
  {% endmacro %}
<section id="hand-log" class="hand-log" tabindex="0" aria-label="{{ _("Déroulé de la main") }}" data-announce="{{ table_view.announcement }}" data-hand="{{ table_view.hand_number }}" data-words="{{ table_view.announce_words|json_attribute }}"{% if oob %} hx-swap-oob="true"{% endif %}>
  <h2 class="hand-log__title">{{ _("Déroulé de la main") }}</h2>
  {% for section in table_view.log %}{{ log_section(section.title, section.lines, section.deje_lines) }}{% else %}
  <p class="hand-log__empty">{{ _("Rien n'a encore été dit.") }}</p>
  {% endfor %}
  {{ table_view.past_hands }}
</section>
"""  # noqa: E501


def region_before(context: dict) -> str:
    """REGION_BEFORE, its sections' deje lines taken from their items."""
    view = dict(context["table_view"])
    view["log"] = [
        dict(s, deje_lines=[i for i, (_line, deje) in enumerate(s["items"]) if deje])
        for s in view["log"]
    ]
    return jinja.ENV.from_string(REGION_BEFORE).render(dict(context, table_view=view))


def test_the_hand_log_written_from_its_parts_is_the_region_its_template_wrote():
    from games.display import hand_log
    from games.display.table_view import build_table
    from games.display.view_model import TableFacts

    checked = 0
    for number, observation in enumerate(moments()):
        seat = number % 4
        names = ["Ane", "B<i>x", "Ca'mille", 'Da"ni']
        for language in LANGUAGES:
            with translation.override(language), translations.one_language():
                view = build_table(TableFacts(observation, names, seat))
                for oob in (True, False):
                    context = {"table_view": view, "oob": oob}
                    assert hand_log.written(context) == region_before(context)
                    checked += 1
    empty = {"table_view": dict(view, log=[], past_hands=""), "oob": False}
    assert hand_log.written(empty) == region_before(empty)
    assert "hand-log__empty" in hand_log.written(empty)
    assert checked > 400


def test_a_log_sections_items_are_its_lines_with_the_dejes_marked():
    marked = 0
    for observation in moments():
        with translation.override("fr"):
            teams = list(table_view.team_labels(0, None))
            for section in table_view.build_log(observation, PLAYERS, teams):
                assert [line for line, _ in section["items"]] == list(section["lines"])
                for line, deje in section["items"]:
                    assert deje == ("Marqué tout de suite" in line)
                    marked += deje
    assert marked > 0


#: The declarations as the lance-status region wrote them before they were written once.
DECLARATIONS_BEFORE = """{% for decl in declarations %}
  <p class="declarations"><span class="declarations__lance">{% trans label=decl.lance %}{{ label }} :{% endtrans %}</span>{% for item in decl.items %} <span class="decl decl--{% if item.has %}yes{% else %}no{% endif %}">{{ item.name }} {{ item.text }}</span>{% if not loop.last %},{% endif %}{% endfor %}</p>
  {% endfor %}"""  # noqa: E501


def test_the_declarations_written_once_are_the_bytes_the_region_wrote():
    before, checked = jinja.ENV.from_string(DECLARATIONS_BEFORE), 0
    names = ["Ane", "B<i>x", "Ca'mille", 'Da"ni']
    for observation in moments():
        if observation["declarations"]["paires"] is None:
            continue
        for language in LANGUAGES:
            with translation.override(language), translations.one_language():
                teams = list(table_view.team_labels(0, None))
                status = table_view.build_lance_status(observation, names, teams)
                declarations = [
                    {
                        "lance": vocabulary.lance_name(lance),
                        "items": [
                            {"name": names[s], "has": has[s], "text": text}
                            for s, (_name, _has, text) in enumerate(items)
                        ],
                    }
                    for (lance, has), (_label, items) in zip(
                        table_view.declared(observation["declarations"]),
                        status["declarations"],
                        strict=True,
                    )
                ]
                args = ("games/_table_parts.html", "declarations", status["declarations"])
                assert jinja.cached_macro(*args) == before.render(declarations=declarations)
                checked += 1
    assert checked > 50


#: The lance-status region as its single template wrote it, before it was written from its
#: parts (games.display.lance_status).
LANCE_STATUS_BEFORE = """
<section id="lance-status" class="lance-status" aria-label="{{ _("Tour en cours") }}"{% if oob %} hx-swap-oob="true"{% endif %}>
  {% with ls=table_view.lance_status %}
  <h2 class="lance-status__title">{{ ls.title }}</h2>
  {% if ls.discard_round_count %}<p class="lance-status__rounds">{% trans rounds=ls.discard_round_count %}Écarts : {{ rounds }} tour{% pluralize %}Écarts : {{ rounds }} tours{% endtrans %}</p>{% endif %}
  {% if ls.envite %}
  <div class="envite">
    <p class="envite__text">{{ ls.envite.text }}{% if ls.envite.held_text %} {{ ls.envite.held_text }}{% endif %}</p>
    {% if ls.envite.answering %}<p class="envite__answering">{{ ls.envite.answering }}</p>{% endif %}
    {% if ls.envite.eligible %}<p class="envite__eligible">{% trans eligible=ls.envite.eligible %}Parlent : {{ eligible }}{% endtrans %}</p>{% endif %}
    {% if ls.envite.votes %}<ul class="envite__votes">{% for v in ls.envite.votes %}<li>{{ v }}</li>{% endfor %}</ul>{% endif %}
  </div>
  {% endif %}
  {{ cached_macro("games/_table_parts.html", "declarations", ls.declarations) }}
  {% endwith %}
</section>
"""  # noqa: E501


def moments_with_discards():
    """Moments of a partie where the seats mostly ask for mus: hands with discard rounds."""
    for game in random_parties([4], limit=300, weights=dict(DEFAULT_WEIGHTS, mus=85)):
        yield engine.observation(game.state, game.state["version"] % 4)


def test_the_lance_status_written_from_its_parts_is_the_region_its_template_wrote():
    from games.display import lance_status
    from games.display.table_view import build_table
    from games.display.view_model import TableFacts

    before, seen = jinja.ENV.from_string(LANCE_STATUS_BEFORE), set()
    names = ["Ane", "B<i>x", "Ca'mille", 'Da"ni']
    for number, observation in enumerate([*moments(), *moments_with_discards()]):
        for language in LANGUAGES:
            with translation.override(language), translations.one_language():
                view = build_table(TableFacts(observation, names, number % 4))
                for oob in (True, False):
                    context = {"table_view": view, "oob": oob}
                    assert lance_status.written(context) == before.render(context)
                status = view["lance_status"]
                envite = status["envite"] or {}
                seen.add(
                    (
                        status["discard_round_count"] > 0,
                        bool(envite),
                        bool(envite.get("held_text")),
                        bool(envite.get("answering")),
                        bool(envite.get("eligible")),
                        bool(envite.get("votes")),
                        bool(status["declarations"]),
                    )
                )
    # every part of the region, shown and not, was compared
    assert [any(flags[i] for flags in seen) for i in range(7)] == [True] * 7, seen
    assert {all(flags[i] for flags in seen) for i in range(7)} == {False}
