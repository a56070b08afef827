"""One lifecycle for a web process's background loops (heartbeats, push healing, the fan-out's
listener): a single task on the running event loop, started by the first socket that needs it,
started again on a new event loop (tests run one per test), cancelled by `reset`."""

import asyncio

from django.conf import settings

#: Every loop of the process (`reset_all`).
LOOPS: list["ProcessLoop"] = []


class ProcessLoop:
    name = "loop"

    def __init__(self):
        self.loop_task: asyncio.Task | None = None

    async def run(self) -> None:
        raise NotImplementedError

    def running_here(self) -> bool:
        task = self.loop_task
        return (
            task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop()
        )

    def ensure_running(self) -> None:
        if not self.running_here():
            self.loop_task = asyncio.get_running_loop().create_task(self.run(), name=self.name)

    def reset(self) -> None:
        """Forget every socket and the task."""
        if self.loop_task is not None and not self.loop_task.get_loop().is_closed():
            self.loop_task.cancel()
        self.__init__()


class PeriodicLoop(ProcessLoop):
    """`tick` every `period_setting` seconds (read at each turn: tests change it)."""

    period_setting = ""

    async def tick(self) -> None:
        raise NotImplementedError

    async def run(self) -> None:
        while True:
            await asyncio.sleep(getattr(settings, self.period_setting))
            await self.tick()


def process_loop[L: ProcessLoop](loop: L) -> L:
    """`loop`, the one of its kind in this process."""
    LOOPS.append(loop)
    return loop


def reset_all() -> None:
    for loop in LOOPS:
        loop.reset()
