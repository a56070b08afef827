"""The action log is append-only in PostgreSQL too: UPDATE and DELETE of a row raise.

(TRUNCATE, which the test suite uses to empty tables, fires no row trigger.)"""

from django.db import migrations

CREATE = """
CREATE FUNCTION games_gameaction_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'games_gameaction is append-only: % refused', TG_OP;
END
$$;
CREATE TRIGGER games_gameaction_append_only
    BEFORE UPDATE OR DELETE ON games_gameaction
    FOR EACH ROW EXECUTE FUNCTION games_gameaction_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS games_gameaction_append_only ON games_gameaction;
DROP FUNCTION IF EXISTS games_gameaction_append_only();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0002_game")]

    operations = [migrations.RunSQL(CREATE, DROP)]
