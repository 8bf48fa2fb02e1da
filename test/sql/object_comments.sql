-- Every schema, type, function, aggregate, procedure and cast of the
-- extension (the internal helpers' schema glicko2_internal included) has a
-- COMMENT ON, including what PostgreSQL makes with a range type.  Since 17,
-- PostgreSQL also records as members the array type it makes implicitly for
-- every type and the row type of every table: those are not objects of ours
-- to describe and are left out, by what they are, on every version.
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS without_comment
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'glicko2')
  AND d.deptype = 'e'
  AND d.classid IN ('pg_namespace'::regclass, 'pg_type'::regclass, 'pg_proc'::regclass,
                    'pg_cast'::regclass)
  AND NOT EXISTS (SELECT 1 FROM pg_type a JOIN pg_type e ON e.typarray = a.oid
                  WHERE d.classid = 'pg_type'::regclass AND a.oid = d.objid)
  AND NOT EXISTS (SELECT 1 FROM pg_type t JOIN pg_class r ON r.oid = t.typrelid
                  WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
                    AND r.relkind <> 'c')
  AND NOT EXISTS (SELECT 1 FROM pg_description c
                  WHERE c.classoid = d.classid AND c.objoid = d.objid AND c.objsubid = 0)
ORDER BY 1;
