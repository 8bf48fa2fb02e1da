-- glicko2_evaluate (and glicko2_fit_tau, which runs it once per tau) on a
-- partitioned games table without statistics: the numbering query's estimate
-- passed jit_above_cost and every call compiled it (0.7 s each; fit_tau of
-- 36 games 8.6 s, found by fuzz/calls.py).  The JIT thresholds at 0 make
-- every query of a session compile where the server has JIT; the function
-- runs with jit off, so the grid search finishes well inside the timeout.
CREATE SCHEMA evaluate_jit;
SET search_path = evaluate_jit, public;
CREATE TABLE games (period int, player_id bigint, opponent_id bigint, score float8)
  PARTITION BY LIST (period);
CREATE TABLE games_1 PARTITION OF games FOR VALUES IN (1);
CREATE TABLE games_d PARTITION OF games DEFAULT;
INSERT INTO games
SELECT p, i % 12 + 1, (i * 7 + p) % 12 + 1, (i % 3) / 2.0
FROM generate_series(1, 3) p, generate_series(1, 12) i
WHERE i % 12 <> (i * 7 + p) % 12;
SET jit_above_cost = 0;
SET jit_inline_above_cost = 0;
SET jit_optimize_above_cost = 0;
SET statement_timeout = '4s';
SELECT count(*) AS taus, count(*) FILTER (WHERE best) AS best, min(n_games) AS games
FROM glicko2_fit_tau('games');
-- the same numbers as on a plain copy of the games
CREATE TABLE plain_games AS SELECT * FROM games;
SELECT count(*) AS differences
FROM glicko2_fit_tau('games') a FULL JOIN glicko2_fit_tau('plain_games') b USING (tau)
WHERE a.log_loss IS DISTINCT FROM b.log_loss OR a.best IS DISTINCT FROM b.best;
RESET statement_timeout;
RESET jit_above_cost;
RESET jit_inline_above_cost;
RESET jit_optimize_above_cost;
DROP SCHEMA evaluate_jit CASCADE;
