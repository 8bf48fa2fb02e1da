/*
 * relation.h — a relation's columns as every caller checks them (the C
 * functions, and the PL/pgSQL closes through the SQL wrappers in
 * relation.c): a column by name with an error naming the argument that
 * named it, the unique-key test, the integer-key and number tests.
 */
#ifndef GLICKO2_RELATION_H
#define GLICKO2_RELATION_H

#include "postgres.h"

/* The number of column `column` of relid, or an ERROR (42703) naming the
 * column and the relation, with `hint` saying how to name another. */
extern AttrNumber glicko_column_attnum(Oid relid, const char *column, const char *hint);

/* An ERROR (42809) naming the argument unless relid is a relation of the
 * user's: no part reads, locks or writes a system catalog or TOAST table
 * for a table argument (a superuser could otherwise empty pg_class). */
extern void glicko_not_catalog(Oid relid, const char *argument);

/* Is the type int2, int4 or int8 (player keys of these types mix)? */
extern bool glicko_is_integer_type(Oid type);

/* Is the type a number a score or weight may be: float8, float4, numeric,
 * int2, int4 or int8?  The one rule of the closes, the live triggers and
 * (through glicko2_number_column_check) the PL/pgSQL checks. */
extern bool glicko_is_number_type(Oid type);

/* ERROR (42804) unless type is a number, naming column and relation. */
extern void glicko_require_number(Oid type, const char *column, const char *relation);

/* May keys of type a and keys of type b name the same players: the same
 * type, or two integer types. */
extern bool glicko_keys_match(Oid a, Oid b);

/* ERROR unless the type of a party column has an equality. */
extern void glicko_party_type_check(Oid relid, const char *column, Oid type);

/* Is column attnum of relid alone a unique key: a valid, immediate,
 * non-partial unique index (or primary key) whose one key column it is?
 * (Columns an index only INCLUDEs do not change what it makes unique.) */
extern bool glicko_unique_key(Oid relid, AttrNumber attnum);

#endif							/* GLICKO2_RELATION_H */
