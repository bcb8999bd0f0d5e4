"""The database, the only truth several server processes share: its tables and every transaction.

`schema` and `database` (SQLite with WAL, or PostgreSQL), `tokens` (seat tokens, secrets, codes),
the transactions of `rooms` (join, come back), `rounds` (open, bid, close) and `table_moves` (Ra
moves and bots), what a student's page shows (`pages`) and what the teacher reads (`export`),
`bus` (events between processes: LISTEN/NOTIFY) and `refusal` (what every floor above answers to
anything it will not do). Nothing here knows about sockets or HTTP.
"""
