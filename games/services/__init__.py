"""Every write of the site's games, each in one transaction that first locks its row
(games.services.locks), so two requests on one table or one game are served one after the
other.

- `salle`: tables opened, seats taken and left, a table started; idle open tables closed.
- `robots`: robot seats placed and taken back, the practice table, a robot's decision.
- `play`: a game dealt, one decision applied, and `game_finish`, the one way a game ends.
- `presence`: which table sockets a seat holds, and which web processes are alive.
- `deadlines`: an away seat's deadline, and the cancellations it or idleness leads to.
- `sweep`: the beat's safety net over all of them.
- `locks`: one helper per row kind, and the lock order; `errors`: every refusal a person sees.

Lock order, to stay deadlock-free: the table row, then the user row, then the game row.
Nothing here imports games.tasks: a task is enqueued by its name (see games.tasks).
"""
