-- Included twice by league.sql: writes demo/out/:dat.dat from history
-- table :hist, one block per plotted player: its name, then
-- "period rating lower upper hidden-strength" rows.
\o demo/out/:dat.dat
SELECT CASE WHEN h.period = 1 THEN format(E'\n\n"%s"\n', p.name) ELSE '' END
       || format('%s %s %s %s %s', h.period, round((h.rating).rating::numeric, 1),
                 round(glicko2_lower(h.rating)::numeric, 1), round(glicko2_upper(h.rating)::numeric, 1),
                 round(s.strength::numeric, 1))
FROM :"hist" h JOIN players p USING (player_id) JOIN strengths s USING (player_id, period)
WHERE h.player_id IN (7, 10, 20, 33)
ORDER BY h.player_id, h.period \g (format=unaligned tuples_only=on)
\o
