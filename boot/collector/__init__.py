# SPDX-License-Identifier: BSD-2-Clause
"""efiperf-collector: the lab side of a fleet run. efiperf machines post their records to it as
they write them; it validates each record against the schema efiperf-report uses, stores it
(SQLite or PostgreSQL), and serves a fleet page, each run's report, a JSON API and exports."""
