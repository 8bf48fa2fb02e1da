# glicko2 — PGXS build.  The version has one source: glicko2.control.
EXTENSION = glicko2
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = $(EXTENSION)
OBJS = $(patsubst %.c,%.o,$(wildcard src/*.c))
HEADERS = $(wildcard src/*.h)

# The install script is built from ordered parts in sql/, one per concern;
# a part may use only what the parts before it create.
SQL_PARTS = \
	sql/types.sql \
	sql/close.sql \
	sql/matches.sql \
	sql/live.sql \
	sql/read.sql \
	sql/history.sql \
	sql/matchmaking.sql

DATA_built = $(EXTENSION)--$(EXTVERSION).sql
# upgrade/: update scripts glicko2--A--B.sql, and full scripts of old versions
# (glicko2--A.sql) that test/shell/upgrade.sh installs to test the update path.
DATA = $(wildcard upgrade/$(EXTENSION)--*.sql)

# Tests live in test/ (sql/, expected/, specs/), as in pgvector.
REGRESS = $(patsubst test/sql/%.sql,%,$(sort $(wildcard test/sql/*.sql)))
REGRESS_OPTS = --inputdir=test --load-extension=$(EXTENSION)
ISOLATION = $(patsubst test/specs/%.spec,%,$(sort $(wildcard test/specs/*.spec)))
ISOLATION_OPTS = --inputdir=test --load-extension=$(EXTENSION)

EXTRA_CLEAN = test/unit/math_test test/unit/matchmaking_test

# errno is never read here: without it sqrt is one instruction, not a call
# guarded by a test for negative arguments (same results; bench/).
PG_CFLAGS = -fno-math-errno

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# Parts are joined with a blank line between them.
$(EXTENSION)--$(EXTVERSION).sql: $(SQL_PARTS) $(EXTENSION).control
	awk 'FNR == 1 && NR != 1 { print "" } { print }' $(SQL_PARTS) > $@

$(OBJS): $(HEADERS)

# The PostgreSQL-free mathematics, tested on its own.
test/unit/math_test: test/unit/math_test.c src/glicko_math.c src/glicko_math.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Isrc -o $@ \
		test/unit/math_test.c src/glicko_math.c -lm

test/unit/matchmaking_test: test/unit/matchmaking_test.c src/matchmaking_math.c src/matchmaking_math.h src/glicko_math.c src/glicko_math.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Isrc -o $@ \
		test/unit/matchmaking_test.c src/matchmaking_math.c src/glicko_math.c -lm

unittest: test/unit/math_test test/unit/matchmaking_test
	test/unit/math_test
	test/unit/matchmaking_test

.PHONY: unittest

# META.json repeats the version for PGXN; keep it equal to the control file's.
metacheck:
	@grep -q '"version": "$(EXTVERSION)' META.json || { echo "META.json version differs from $(EXTVERSION)"; exit 1; }

.PHONY: metacheck
