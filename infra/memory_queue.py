"""The job queue within one process: the twin of :class:`infra.queue.ArqJobQueue` and of the sampler
:func:`infra.queue.queue_depth` (a runtime of twins, the API's tests), held to the same contract suite
(tests/integration/test_queue_twin.py). Nothing runs its jobs: a test does the worker's part
(``Gameplay.run_system``), as it does against a real queue no worker reads."""

from __future__ import annotations

from arq.utils import timestamp_ms

from .queue import Job, QueueDepth, Timer


class InMemoryJobQueue:
    """Keeps each job id once (a job queued again is refused, as arq refuses a queued one), with its due moment."""

    def __init__(self) -> None:
        self.jobs: list[Job] = []
        self.timers: list[Timer] = []
        self._due_ms: dict[str, int] = {}
        """By job id: when the job is due (ms since the epoch)."""

    async def enqueue(self, job: Job) -> bool:
        if not self._keep(job.job_id, timestamp_ms()):
            return False
        self.jobs.append(job)
        return True

    async def schedule(self, timer: Timer) -> bool:
        if not self._keep(timer.job_id, max(timestamp_ms(), timer.due_ms)):
            return False
        self.timers.append(timer)
        return True

    def _keep(self, job_id: str, due_ms: int) -> bool:
        """Record the job's due moment; False if its id is queued already."""
        if job_id in self._due_ms:
            return False
        self._due_ms[job_id] = due_ms
        return True

    async def depth(self) -> QueueDepth:
        """The queue now, as :func:`infra.queue.queue_depth` samples arq's."""
        now = timestamp_ms()
        due = [at for at in self._due_ms.values() if at <= now]
        oldest = max(0.0, (now - min(due)) / 1000) if due else 0.0
        return QueueDepth(len(due), len(self._due_ms) - len(due), oldest)
