"""A pareja's name: the user names' look-alike rule (accounts.usernames, Unicode TR39), with
the spaces and apostrophes a team name wants (« Los de Tolosa », « L’Amuko »)."""

import re
import unicodedata

from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts import usernames
from pairs.errors import PairError

MIN_LENGTH, MAX_LENGTH = 3, 40
SIGNS = usernames.ALLOWED_SIGNS | frozenset(" '’")


def clean(name) -> str:
    """The name as stored: NFKC (as the user names), spaces collapsed, ends trimmed."""
    text = unicodedata.normalize("NFKC", str(name or ""))
    return re.sub(r"\s+", " ", text).strip()


def skeleton(name: str) -> str:
    """The form names are compared by: the user names' skeleton of the letters and digits
    alone, so « Los Txapelas », « los-txapelas » and « L0S TXAPELAS » are one name."""
    return usernames.skeleton("".join(c for c in name if c.isalnum()))


def slug(name: str) -> str:
    """The page's address: /parejas/<slug>/. Two names with one slug have one skeleton, so the
    skeleton's uniqueness keeps the slugs apart."""
    return slugify(name, allow_unicode=True)


def check(name: str) -> None:
    """Refuse, in French, a name that is too short or long or mixes alphabets or symbols. Its
    look-alikes are refused by pairs.services under the constraint (Pair.skeleton)."""
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise PairError(
            _("Le nom d’une pareja compte de %(min)d à %(max)d caractères.")
            % {"min": MIN_LENGTH, "max": MAX_LENGTH}
        )
    problem = usernames.letters_problem(name, SIGNS)
    if problem == "characters":
        raise PairError(
            _(
                "Le nom d’une pareja ne peut contenir que des lettres, des chiffres, des "
                "espaces et . _ - ’"
            )
        )
    if problem == "mixed_scripts":
        raise PairError(_("Le nom d’une pareja s’écrit avec les lettres d’un seul alphabet."))
    if not any(c.isalnum() for c in name) or not slug(name):
        raise PairError(_("Le nom d’une pareja contient au moins une lettre ou un chiffre."))
