"""The rating maths, pure: openskill's Plackett-Luce model for two teams of two.

openskill is maintained, made for teams (a team's result moves each member by the team's
strength against the other team's, weighted by each one's uncertainty) and deterministic, so
the rebuild from the records gives the same floats. The shown number is its conservative
estimate (mu - 3 sigma) on a friendlier scale: 1000 for a newcomer, about +100 for a first win.
"""

from functools import cache

#: points = SCALE * (mu - 3 sigma) + BASE (openskill's `ordinal`).
SCALE = 40
BASE = 1000

Skill = tuple[float, float]  # (mu, sigma)


@cache
def model():
    """The model, built on first use: importing openskill costs about 80 ms, which every web
    process and worker would otherwise pay at start-up for a partie's end."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def initial() -> Skill:
    rating = model().rating()
    return rating.mu, rating.sigma


def points(skill: Skill) -> int:
    mu, sigma = skill
    return round(model().rating(mu=mu, sigma=sigma).ordinal(alpha=SCALE, target=BASE))


def after_partie(skills: list[Skill], winning_team: int) -> list[Skill]:
    """The four seats' skills after a partie `winning_team` (0: seats 0 and 2) won."""
    ratings = [model().rating(mu=mu, sigma=sigma) for mu, sigma in skills]
    teams = [[ratings[0], ratings[2]], [ratings[1], ratings[3]]]
    ranks = [0, 1] if winning_team == 0 else [1, 0]
    (a, c), (b, d) = model().rate(teams, ranks=ranks)
    return [(r.mu, r.sigma) for r in (a, b, c, d)]
