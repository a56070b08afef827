"""Look-alike user names, refused at sign-up (a Cyrillic `а` in `admin`, `rn` for `m`, ...),
so that nobody can pass for another player or for a robot.

No dependency: the Python packages for Unicode confusables are unmaintained. The rules follow
Unicode TR39 (one script, a skeleton compared with every existing name in one query); they are
written out in docs/services.md (« User names »).
"""

import unicodedata

from django.contrib.auth.hashers import make_password
from django.core.exceptions import ValidationError
from django.db.models import F, Func, Value
from django.db.models.functions import Lower, Replace
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.robot_names import ROBOT_NAMES, ROBOT_SUFFIX, robot_forms

ALLOWED_SIGNS = frozenset("0123456789._-")
SCRIPT_FAMILIES = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA"}),
    frozenset({"HAN", "HANGUL"}),
)
SCRIPTS_WITHOUT_MARKS = frozenset({"LATIN", "GREEK", "CYRILLIC"})

# Applied before lower-casing: a capital I looks like a small L.
BEFORE_LOWER = ("I", "l")
# Applied after lower-casing: for each Latin letter, the characters that look like it (Greek
# and Cyrillic small letters go to the Latin letter their capital looks like).
LOOKALIKES = {
    "a": "аα",
    "b": "вβ",
    "c": "сϲ",
    "d": "ԁ",
    "e": "еε",
    "g": "ԍ",
    "h": "нһη",
    "i": "іιı",
    "j": "јϳ",
    "k": "кκ",
    "l": "ӏ1",
    "m": "мμ",
    "n": "ν",
    "o": "о0ο",
    "p": "рρ",
    "q": "ԛ",
    "s": "ѕ",
    "t": "тτ",
    "u": "υ",
    "w": "ԝ",
    "x": "хχ",
    "y": "уү",
    "z": "ζ",
}
SEQUENCES = (("rn", "m"), ("vv", "w"))
# One table for Python and for SQL's TRANSLATE(text, from, to).
LOOKALIKE_FROM = "".join(LOOKALIKES.values())
LOOKALIKE_TO = "".join(letter * len(chars) for letter, chars in LOOKALIKES.items())
_TABLE = str.maketrans(LOOKALIKE_FROM, LOOKALIKE_TO)


def skeleton(name: str) -> str:
    """The form `name` is compared by; equal skeletons look alike."""
    text = unicodedata.normalize("NFKC", name).replace(*BEFORE_LOWER).lower().translate(_TABLE)
    for sequence, letter in SEQUENCES:
        text = text.replace(sequence, letter)
    return text


def skeleton_expression():
    """skeleton() of the username column, in SQL (stored names are already NFKC)."""
    text = Func(F("username"), Value(BEFORE_LOWER[0]), Value(BEFORE_LOWER[1]), function="TRANSLATE")
    text = Func(Lower(text), Value(LOOKALIKE_FROM), Value(LOOKALIKE_TO), function="TRANSLATE")
    for sequence, letter in SEQUENCES:
        text = Replace(text, Value(sequence), Value(letter))
    return text


def validate_new(name: str) -> None:
    """Raise a French ValidationError unless `name` may be taken by a new user."""
    problem = letters_problem(name)
    if problem == "characters":
        raise ValidationError(
            _("Un nom de joueur ne peut contenir que des lettres, des chiffres et . _ -"),
            code="username_characters",
        )
    if problem == "mixed_scripts":
        raise ValidationError(
            _("Un nom de joueur s’écrit avec les lettres d’un seul alphabet."),
            code="username_mixed_scripts",
        )
    if reserved_for_robots(name):
        raise ValidationError(
            _("Ce nom est réservé aux robots du site : choisissez-en un autre."),
            code="username_robot",
        )
    if lookalikes(User, name).exists():
        raise ValidationError(
            _("Ce nom ressemble trop à celui d’un joueur existant : choisissez-en un autre."),
            code="username_lookalike",
        )


def lookalikes(users, name: str):
    """The accounts whose name looks like `name` (`users`: the User model, or its historical
    form in a migration)."""
    return users.objects.alias(skeleton=skeleton_expression()).filter(skeleton=skeleton(name))


def reserved_for_robots(name: str) -> bool:
    """Whether `name` looks like a robot's name (either form) or ends in "-robot"."""
    shown = skeleton(name)
    robots = {skeleton(form) for robot in ROBOT_NAMES for form in robot_forms(robot)}
    return shown in robots or shown.endswith(skeleton(ROBOT_SUFFIX))


def robot_username(users, name: str) -> str | None:
    """The account name the robot called `name` has or may take: its first form that is a
    robot's already or that no account looks like; None if a person holds a look-alike of
    both (the robot is then left out)."""
    for username in robot_forms(name):
        holders = list(lookalikes(users, username).values_list("username", "is_robot"))
        if not holders or holders == [(username, True)]:
            return username
    return None


def robot_accounts_create(users) -> list:
    """Every robot's account that is missing and may be made (robot_username), with no e-mail
    and an unusable password: it can neither log in nor reset a password. Returns the created
    ones. `users`: the User model, or its historical form in the migration."""
    created = []
    for name in ROBOT_NAMES:
        username = robot_username(users, name)
        if username is not None and not users.objects.filter(username=username).exists():
            robot = users(username=username, is_robot=True, email="")
            robot.password = make_password(None)
            robot.save()
            created.append(robot)
    return created


def letters_problem(name: str, signs: frozenset[str] = ALLOWED_SIGNS) -> str | None:
    """What is wrong with the characters of `name` under TR39's rules, or None: "characters"
    (a symbol, a space or an invisible character not in `signs`), "mixed_scripts" (letters of
    two alphabets, or a combining mark on Latin, Greek or Cyrillic). The pairs' names use it
    with a few more signs (pairs.names)."""
    scripts, marks = set(), False
    for char in name:
        category = unicodedata.category(char)
        if char in signs:
            continue
        if category.startswith("L"):
            scripts.add(_script(char))
        elif category in ("Mn", "Mc"):
            marks = True
        else:
            return "characters"
    if not _one_script(scripts) or (marks and scripts & SCRIPTS_WITHOUT_MARKS):
        return "mixed_scripts"
    return None


def _script(letter: str) -> str:
    word = unicodedata.name(letter, "UNKNOWN").split()[0]
    return "HAN" if word == "CJK" else word


def _one_script(scripts: set[str]) -> bool:
    return len(scripts) <= 1 or any(scripts <= family for family in SCRIPT_FAMILIES)
