-- Every type, function, aggregate, procedure and cast of the extension has a
-- COMMENT ON, including what PostgreSQL makes with a range type.
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS without_comment
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'glicko2')
  AND d.deptype = 'e'
  AND d.classid IN ('pg_type'::regclass, 'pg_proc'::regclass, 'pg_cast'::regclass)
  AND NOT EXISTS (SELECT 1 FROM pg_description c
                  WHERE c.classoid = d.classid AND c.objoid = d.objid AND c.objsubid = 0)
ORDER BY 1;

