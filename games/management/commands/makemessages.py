"""Django's makemessages, and the table regions' Jinja ``{% trans %}`` blocks too.

Django's extractor reads ``{{ _("...") }}`` in templates/jinja2/ but not Jinja's ``{% trans %}``
blocks (the strings with variables), ``_()`` after ``or``, nor ``pgettext()``: without them a
catalog refresh would drop those msgids as obsolete. Jinja's own extractor (the one Babel uses)
finds them with the settings of core/jinja.py (newstyle gettext); they join the .pot before
msgmerge.
"""

import os
from pathlib import Path

from django.core.management.commands import makemessages
from django.core.management.utils import popen_wrapper
from jinja2.ext import babel_extract

KEYWORDS = ("_", "gettext", "ngettext", "pgettext")
OPTIONS = {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true"}


def po_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def jinja_entries(path: Path) -> list[str]:
    """The PO entries of one Jinja template's marked strings."""
    entries = []
    with path.open("rb") as source:
        for _line, function, message, _comments in babel_extract(source, KEYWORDS, [], OPTIONS):
            # newstyle gettext: a {% trans %} block's variables follow its text as None
            if isinstance(message, tuple):
                strings = [m for m in message if isinstance(m, str)]
                if function == "ngettext" and len(strings) == 2:
                    entries.append(
                        f"#, python-format\nmsgid {po_string(strings[0])}\n"
                        f"msgid_plural {po_string(strings[1])}\n"
                        'msgstr[0] ""\nmsgstr[1] ""\n'
                    )
                    continue
                if function == "pgettext" and len(strings) == 2:
                    entries.append(
                        f"msgctxt {po_string(strings[0])}\nmsgid {po_string(strings[1])}\n"
                        'msgstr ""\n'
                    )
                    continue
                message = strings[0] if strings else None
            if message:
                flag = "#, python-format\n" if "%(" in message or "%%" in message else ""
                entries.append(f'{flag}msgid {po_string(message)}\nmsgstr ""\n')
    return entries


class Command(makemessages.Command):
    # A new msgid comes untranslated, not "fuzzy" with a neighbour's translation as a guess:
    # the catalogs' test names it for the translators (docs/languages.md).
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]

    def build_potfiles(self):
        potfiles = super().build_potfiles()
        if self.domain != "django":
            return potfiles
        found = self.find_files(".")
        jinja = [f for f in found if "jinja2" in Path(f.path).parts and f.path.endswith(".html")]
        for potfile in potfiles:
            locale_dir = os.path.dirname(potfile)
            entries = [
                entry
                for f in jinja
                if f.locale_dir == locale_dir
                for entry in jinja_entries(Path(f.path))
            ]
            if not entries:
                continue
            with open(potfile, "a", encoding="utf-8") as pot:
                pot.write("\n" + "\n".join(entries))
            msgs, errors, status = popen_wrapper(["msguniq", *self.msguniq_options, potfile])
            if status:
                raise makemessages.CommandError(f"msguniq failed on the Jinja messages\n{errors}")
            Path(potfile).write_text(makemessages.normalize_eols(msgs), encoding="utf-8")
        return potfiles
