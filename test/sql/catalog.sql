-- The extension's installed objects as the catalog records them: kind,
-- schema, name and, for routines, the arguments with their names (so a
-- rename shows here).  The documented API is in the extension's schema, the
-- internal helpers in glicko2_internal.  Left out: the implicit array types
-- and table row types that 17 and later record as members.
-- Unaligned, one object a line, so a change shows as that line alone.
\pset format unaligned
SELECT i.type, coalesce(i.schema, '') AS schema,
       coalesce(p.proname::text, i.name, i.identity) AS name,
       coalesce(pg_get_function_identity_arguments(p.oid), '') AS arguments
FROM pg_depend d
CROSS JOIN LATERAL pg_identify_object(d.classid, d.objid, d.objsubid) i
LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
WHERE d.refclassid = 'pg_extension'::regclass
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'glicko2')
  AND d.deptype = 'e'
  AND NOT EXISTS (SELECT 1 FROM pg_type a JOIN pg_type e ON e.typarray = a.oid
                  WHERE d.classid = 'pg_type'::regclass AND a.oid = d.objid)
  AND NOT EXISTS (SELECT 1 FROM pg_type t JOIN pg_class r ON r.oid = t.typrelid
                  WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
                    AND r.relkind <> 'c')
ORDER BY 3, 1, 4;
\pset format aligned
