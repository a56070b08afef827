"""Forming a pareja through the services, as its two players would."""

from pairs import services


def form_pair(proposer, partner, name="Los Txapelas"):
    pair = services.pair_propose(user=proposer, partner_name=partner.username, name=name)
    return services.pair_accept(user=partner, pair_id=pair.pk)
