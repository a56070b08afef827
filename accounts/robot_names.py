"""The robots' names, reserved for the site's computer players (games.services.robots).

A robot's account is `name`, or `name-robot` when a person already held a look-alike of `name`
on a site that had them before the robots; accounts.usernames refuses a new person's name that
looks like any of them, or ends in "-robot". The accounts are created by the migration
accounts/0006_robot_accounts (so a new site has them before its first sign-up)."""

#: In the order they are seated: Basque and French first names.
ROBOT_NAMES = ("Amaia", "Beñat", "Maddi", "Peio", "Ainhoa", "Manex", "Margot", "Xabi")
ROBOT_SUFFIX = "-robot"


def robot_forms(name: str) -> tuple[str, str]:
    """The account names a robot called `name` may take, the first preferred."""
    return name, f"{name}{ROBOT_SUFFIX}"
