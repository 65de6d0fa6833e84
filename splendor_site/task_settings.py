"""The task queue's settings (Celery, its queues, beat's schedule), part of the site's settings.

``splendor_site.settings`` takes every name here; they live apart because they are one subject
(what runs outside a request, where and when) that a reader looks up as a whole.
"""

from __future__ import annotations

from kombu import Queue

from splendor_site.environment import env_bool, env_str

# --- Celery -----------------------------------------------------------------------------------

# Without REDIS_URL the site runs embedded: tasks execute in-process after commit
# (games.commands.task_queue.enqueue), errors reaching the caller. With it, a worker takes them.
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Nothing reads task results. Keeping them would also make each publish subscribe to its result
# on the Redis backend, which with Redis down retries for about 20 seconds inside the request
# (Celery 5.7) and then leaves the process unable to publish until it restarts.
CELERY_TASK_IGNORE_RESULT = True
# Tasks are idempotent by contract (ids + expected version), so a redelivery is harmless and
# acknowledging late means a crashed worker loses nothing.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    # A broker that is down or hangs must not hold a player's request: without these, a Redis
    # that accepts connections but never answers blocks a publish forever. The worker's own
    # blocking reads (BRPOP) use shorter timeouts of their own.
    "socket_connect_timeout": 2,
    "socket_timeout": 2,
}
# Publishing tries twice, so a pooled connection that Redis dropped is replaced, then gives up:
# after about 0.2 s when connections are refused, 4 s (two socket timeouts) when Redis hangs.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2}
# But a request waits at most this long for a publish (games.commands.task_queue.publish): the
# send goes on in the background, the after-commit hook logs a warning, the sweeper takes the turn.
BROKER_PUBLISH_WAIT_SECONDS = float(env_str("BROKER_PUBLISH_WAIT_SECONDS", "0.4"))
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Fair scheduling: a bot's turn in a game with a player in it goes to its own queue, so that
# games between bots only (their own queue) cannot keep a waiting player's bot behind them.
# Statistics (analytics.tasks) go to a queue of their own too, so they never hold up a bot, and
# so do games' analyses (analysis.tasks, long CPU work) and the Expert's training games
# (training.tasks: a run queues hundreds). README, "Bots, the worker and beat": give each its own
# worker. A worker started without -Q consumes all seven.
BOT_QUEUE_WITH_PLAYERS = "bots_with_players"
BOT_QUEUE_BOTS_ONLY = "bots_only"
ANALYTICS_QUEUE = "analytics"
ANALYSIS_QUEUE = "analysis"
TRAINING_QUEUE = "training"
CELERY_TASK_DEFAULT_QUEUE = "celery"
# Mail goes through its own queue, so a slow or unreachable mail server never delays a bot's
# move (README: a worker of its own, `-Q mail`).
MAIL_QUEUE = "mail"
CELERY_TASK_QUEUES = [
    Queue(CELERY_TASK_DEFAULT_QUEUE),
    Queue(BOT_QUEUE_WITH_PLAYERS),
    Queue(BOT_QUEUE_BOTS_ONLY),
    Queue(ANALYTICS_QUEUE),
    Queue(ANALYSIS_QUEUE),
    Queue(TRAINING_QUEUE),
    Queue(MAIL_QUEUE),
]
CELERY_TASK_ROUTES = {
    "analytics.tasks.*": {"queue": ANALYTICS_QUEUE},
    "analysis.tasks.*": {"queue": ANALYSIS_QUEUE},
    "training.tasks.*": {"queue": TRAINING_QUEUE},
    "notifications.tasks.*": {"queue": MAIL_QUEUE},
}
BEAT_HEARTBEAT_INTERVAL_SECONDS = 60.0
# Three missed heartbeats and the health check says beat is down.
BEAT_HEARTBEAT_MAX_AGE_SECONDS = 3 * BEAT_HEARTBEAT_INTERVAL_SECONDS
CELERY_BEAT_SCHEDULE = {
    "sweep-stuck-bot-turns": {
        "task": "games.tasks.sweep_stuck_bot_turns",
        "schedule": float(env_str("BOT_SWEEP_INTERVAL_SECONDS", "30")),
    },
    "catch-up-analytics": {
        "task": "analytics.tasks.catch_up_analytics",
        "schedule": float(env_str("ANALYTICS_CATCH_UP_INTERVAL_SECONDS", "300")),
    },
    "apply-turn-deadlines": {
        "task": "games.deadline_tasks.apply_turn_deadlines",
        "schedule": float(env_str("DEADLINE_SWEEP_INTERVAL_SECONDS", "60")),
    },
    "send-due-reminders": {
        "task": "notifications.tasks.send_due_reminders",
        "schedule": float(env_str("DEADLINE_SWEEP_INTERVAL_SECONDS", "60")),
    },
    "resend-unsent-mail": {
        "task": "notifications.tasks.resend_unsent_mail",
        "schedule": float(env_str("MAIL_SWEEP_INTERVAL_SECONDS", "60")),
    },
    "send-daily-digests": {
        "task": "notifications.tasks.send_due_digests",
        "schedule": float(env_str("DIGEST_SWEEP_INTERVAL_SECONDS", "600")),
    },
    # Read by the health check (/health/, operations.health): beat is down when it grows old.
    "record-beat-heartbeat": {
        "task": "operations.tasks.record_beat_heartbeat",
        "schedule": BEAT_HEARTBEAT_INTERVAL_SECONDS,
    },
}
# Without a broker there is no beat: the server process runs the schedule above itself
# (splendor_site.periodic_jobs; one process of several, elected by a lock file). Tests and
# management commands never do; `manage.py run_periodic_jobs` runs every job once, anywhere.
PERIODIC_JOBS_IN_PROCESS = env_bool("PERIODIC_JOBS_IN_PROCESS", not REDIS_URL)
