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


def team_of_two(first: Skill, second: Skill) -> Skill:
    """Two players who are not a pair, as one opponent of a pair: the mean of their levels
    and of their variances (a pair is rated as one entity, on the players' scale)."""
    (mu_a, sigma_a), (mu_b, sigma_b) = first, second
    return (mu_a + mu_b) / 2, ((sigma_a**2 + sigma_b**2) / 2) ** 0.5


def after_match(first: Skill, second: Skill, first_won: bool) -> tuple[Skill, Skill]:
    """Two entities (pairs, or a pair and team_of_two) after one partie between them."""
    a = model().rating(mu=first[0], sigma=first[1])
    b = model().rating(mu=second[0], sigma=second[1])
    ranks = [0, 1] if first_won else [1, 0]
    [[a2], [b2]] = model().rate([[a], [b]], ranks=ranks)
    return (a2.mu, a2.sigma), (b2.mu, b2.sigma)
