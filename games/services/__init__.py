"""Every write of the site's games, each in one transaction that first locks its row
(games.services.locks), so two requests on one table or one game are served one after the
other.

Lock order, to stay deadlock-free: the table row, then the user row, then the game row.
Nothing here imports games.tasks: a task is enqueued by its name (see games.tasks). What each
module writes: docs/services.md.
"""
