"""The turn clock outside the table: the rules page's section with the settings' numbers, the
salle's choice of speed and each table's speed in the list."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_rules_page_gives_each_speed_from_the_settings_and_the_automatic_decisions(
    client, settings
):
    settings.TURN_CLOCKS = {"rapide": (10, 45), "normal": (30, 120), "lent": (90, 330)}
    settings.DEAL_SECONDS = 40
    settings.CLOCK_MISSES_LIMIT = 3
    html = client.get("/regles/").content.decode()
    section = html.split('id="horloge"')[1].split('id="barajamos"')[0]
    assert "<strong>Rapide</strong> : 10 s par décision et 45 s de réserve" in section
    assert "<strong>Normal</strong> : 30 s par décision et 2 min de réserve (par défaut)" in section
    assert "<strong>Lent</strong> : 1 min 30 s par décision et 5 min 30 s de réserve" in section
    assert "l’hôte a 40 s pour distribuer" in section
    for decision in ("« Je coupe »", "une seule carte, celle qui aide le moins", "« Je passe »"):
        assert decision in section
    assert "« Je ne tiens pas »" in section and "la donne" in section
    assert "« temps écoulé »" in section
    assert "3 fois de suite" in section and "comme pour une connexion perdue" in section


def test_the_salle_offers_the_speeds_normal_checked_and_lists_each_table_speed(client, cast):
    from games.services import salle

    salle.table_create(user=cast[1], kings=4, clock="rapide")
    client.force_login(cast[0])
    html = client.get("/salle/").content.decode()
    form = html.split('class="create-table"')[1].split("</form>")[0]
    assert 'name="clock" value="rapide">' in form
    assert 'name="clock" value="normal" checked>' in form
    assert 'name="clock" value="lent">' in form
    assert "Rapide (15 s + 1 min de réserve)" in form
    assert "temps : Rapide" in html
