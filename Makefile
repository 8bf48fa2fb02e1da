# glicko2 — PGXS build.  The version has one source: glicko2.control.
EXTENSION = glicko2
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = $(EXTENSION)
# src/core/: the PostgreSQL-free mathematics (plain C99 and libm; checked
# below).  The rest of src/ includes its headers as "core/name.h".
CORE = $(wildcard src/core/*.c src/core/*.h)
OBJS = $(patsubst %.c,%.o,$(wildcard src/*.c src/core/*.c))
# Internal headers: not installed (PGXS installs HEADERS), there is no C API.
GLICKO_HEADERS = $(wildcard src/*.h src/core/*.h)

# The install script is built from ordered parts in sql/, one per concern;
# a part may use only what the parts before it create.
SQL_PARTS = \
	sql/types.sql \
	sql/relation.sql \
	sql/record.sql \
	sql/guard.sql \
	sql/close.sql \
	sql/close_citus.sql \
	sql/matches.sql \
	sql/live.sql \
	sql/read.sql \
	sql/league.sql \
	sql/evaluate.sql \
	sql/replay.sql \
	sql/matchmaking.sql

DATA_built = $(EXTENSION)--$(EXTVERSION).sql
# upgrade/: update scripts glicko2--A--B.sql, and full scripts of old versions
# (glicko2--A.sql) that test/shell/upgrade.sh installs to test the update path.
DATA = $(wildcard upgrade/$(EXTENSION)--*.sql)

# docs/: the user documentation, installed with the extension into a directory
# of its own, $(docdir)/extension/glicko2/ (below), so that names such as
# reference.md cannot collide with another extension's.
DOCS = $(wildcard docs/*.md)

# Tests live in test/ (sql/, expected/, specs/), as in pgvector.
REGRESS = $(patsubst test/sql/%.sql,%,$(sort $(wildcard test/sql/*.sql)))
# aggregate_fresh_fmgr needs test/helper (test-only, not shipped) installed
# in the server: NO_TEST_HELPER=1 leaves it out where that cannot be (the Debian
# package build; test.sh installs the helper and runs everything).
ifdef NO_TEST_HELPER
REGRESS := $(filter-out aggregate_fresh_fmgr,$(REGRESS))
endif
REGRESS_OPTS = --inputdir=test --load-extension=$(EXTENSION)
ISOLATION = $(patsubst test/specs/%.spec,%,$(sort $(wildcard test/specs/*.spec)))
ISOLATION_OPTS = --inputdir=test --load-extension=$(EXTENSION)

EXTRA_CLEAN = test/unit/math_test test/unit/matchmaking_test test/unit/team_test test/unit/league_test src/core/.postgres-free

# errno is never read here: without it sqrt is one instruction, not a call
# guarded by a test for negative arguments (same results; bench/).
PG_CFLAGS = -fno-math-errno
# GLICKO2_VERSION: the version the module's magic block carries on 18 and
# later (src/compat.h).
PG_CPPFLAGS = -I$(srcdir)/src -DGLICKO2_VERSION='"$(EXTVERSION)"'

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS installs DOCS into $(docdir)/$(docmoduledir) (extension/ for every
# extension); its recipes read docmoduledir when they run, so this gives the
# docs their own directory.  PGXS's uninstall names them with their docs/
# prefix, so they are removed here by their own names.
docmoduledir := extension/$(EXTENSION)
uninstall: uninstall-docs
uninstall-docs:
	rm -f $(addprefix '$(DESTDIR)$(docdir)/$(docmoduledir)'/, $(notdir $(DOCS)))
	-rmdir '$(DESTDIR)$(docdir)/$(docmoduledir)'
.PHONY: uninstall-docs

# Parts are joined with a blank line between them.
$(EXTENSION)--$(EXTVERSION).sql: $(SQL_PARTS) $(EXTENSION).control
	awk 'FNR == 1 && NR != 1 { print "" } { print }' $(SQL_PARTS) > $@

$(OBJS): $(GLICKO_HEADERS)

# src/core/ knows nothing of PostgreSQL, and every build checks it: each file
# there must compile as plain C99 with no PostgreSQL include path, and include
# only headers of the C library (<name.h>) and of src/core ("name.h").
# CORE_FILES names other files to check (test.sh shows a PostgreSQL header
# refused this way).
CORE_FILES = $(CORE)
all: src/core/.postgres-free
src/core/.postgres-free: $(CORE)
	@$(MAKE) -s --no-print-directory core-check
	@touch $@
core-check:
	@bad=$$(grep -Hn '^[[:space:]]*#[[:space:]]*include' $(CORE_FILES) | \
		grep -Ev ':[[:space:]]*#[[:space:]]*include[[:space:]]*(<[a-z0-9_]+\.h>|"[a-z0-9_]+\.h")[[:space:]]*(/\*.*)?$$'); \
	if [ -n "$$bad" ]; then \
		echo "src/core must include only C library and src/core headers:"; echo "$$bad"; exit 1; fi
	@for f in $(CORE_FILES); do \
		$(CC) -std=c99 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -fsyntax-only $$f || \
		{ echo "$$f does not compile without PostgreSQL (src/core is PostgreSQL-free)"; exit 1; }; \
	done
.PHONY: core-check

# The PostgreSQL-free mathematics, tested on its own.
test/unit/math_test: test/unit/math_test.c test/unit/check.h src/core/glicko_math.c src/core/glicko_math.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Isrc -o $@ \
		test/unit/math_test.c src/core/glicko_math.c -lm

test/unit/league_test: test/unit/league_test.c test/unit/check.h src/core/league_math.c src/core/league_math.h src/core/glicko_math.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Isrc -o $@ \
		test/unit/league_test.c src/core/league_math.c -lm

test/unit/team_test: test/unit/team_test.c test/unit/check.h src/core/team.c src/core/team.h src/core/glicko_math.c src/core/glicko_math.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Isrc -o $@ \
		test/unit/team_test.c src/core/team.c src/core/glicko_math.c -lm

test/unit/matchmaking_test: test/unit/matchmaking_test.c test/unit/check.h src/core/matchmaking_math.c src/core/matchmaking_math.h src/core/team.c src/core/team.h src/core/glicko_math.c src/core/glicko_math.h
	$(CC) -std=c99 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Isrc -o $@ \
		test/unit/matchmaking_test.c src/core/matchmaking_math.c src/core/team.c src/core/glicko_math.c -lm

unittest: test/unit/math_test test/unit/matchmaking_test test/unit/team_test test/unit/league_test
	test/unit/math_test
	test/unit/matchmaking_test
	test/unit/team_test
	test/unit/league_test

.PHONY: unittest

# META.json (PGXN, semantic version X.Y.0) and debian/changelog repeat the
# control file's version; META.json's PostgreSQL prerequisite is the oldest
# major src/compat.h accepts; the file META.json says provides the extension
# exists; LICENSE is the licence debian/copyright gives.  Keep them equal.
OLDEST_PG = $(shell sed -n 's/^\#if PG_VERSION_NUM < \([0-9]*\)0000$$/\1/p' src/compat.h)
metacheck:
	@test "$$(grep -c '"version": "$(EXTVERSION).0"' META.json)" -ge 2 || { echo "META.json version differs from $(EXTVERSION).0"; exit 1; }
	@head -1 debian/changelog | grep -q '^$(EXTENSION) ($(EXTVERSION))' || { echo "debian/changelog version differs from $(EXTVERSION)"; exit 1; }
	@grep -q '"PostgreSQL": "$(OLDEST_PG).0.0"' META.json || { echo "META.json PostgreSQL prerequisite differs from $(OLDEST_PG).0.0 (src/compat.h)"; exit 1; }
	@test -f "$$(sed -n 's/.*"file": *"\([^"]*\)".*/\1/p' META.json)" || { echo "META.json provides a file that does not exist"; exit 1; }
	@test "$$(tail -n +3 LICENSE | sed -e 's/^$$/./' -e 's/^/ /')" = "$$(awk '/^License: PostgreSQL$$/ {on = 1; next} on && /^ / {print; next} on {exit}' debian/copyright)" || \
	  { echo "LICENSE differs from the licence in debian/copyright"; exit 1; }

# The PGXN archive: what git tracks at HEAD, in glicko2-X.Y.0/.
dist: metacheck
	mkdir -p dist
	git archive --format zip --prefix=$(EXTENSION)-$(EXTVERSION).0/ \
		--output dist/$(EXTENSION)-$(EXTVERSION).0.zip HEAD

.PHONY: metacheck dist

# The C laid out as PostgreSQL lays out its own (tools/indent.sh: Debian's
# pg-bsd-indent with pgindent's options; the type names from the objects'
# debug information, hence the build first).  indent-check changes nothing
# and fails on a file laid out otherwise; INDENT_FILES names other files
# (test.sh shows a badly laid out one refused).
indent: all
	@bash tools/indent.sh $(INDENT_FILES)
indent-check: all
	@bash tools/indent.sh --check $(INDENT_FILES)
.PHONY: indent indent-check
