#!/usr/bin/env python3
"""check-doc-signatures.py [FILE...] -- every routine signature the docs quote
is the catalog's (run by test/shell/doc_signatures.sh, against a database
where glicko2 is installed; psql's environment names it).

A signature is a line `PROCEDURE name(...)`, `FUNCTION name(...)` or
`AGGREGATE name(...)` in a fenced block (`--` comments left out), or an inline
code span `name(arg type, ...)` or `name() -> result` naming a routine of the
extension; a span whose arguments are values (`name('x', a => 1)`) is a call,
and one with optional arguments in brackets (`name(a, b [, c])`) a usage, not
a signature.  Each must list the arguments of one of the routines of that
name exactly: modes, names, types (float8 is double precision: PostgreSQL
reads the types) and defaults (equal as values of the argument's type), and
the result where it gives one (`-> type`, `-> TABLE (...)`).  Files: README.md
and docs/*.md by default.  Exits 1 naming each signature that differs, with
the catalog's."""
import glob
import json
import re
import subprocess
import sys

MODES = ('IN', 'OUT', 'INOUT', 'VARIADIC')


def psql(sql):
    out = subprocess.run(['psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def literal(value):
    text = json.dumps(value)
    assert '$j$' not in text
    return f"$j${text}$j$"


def split_top(text):
    """text split at the commas outside parentheses, brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = None
        elif c in '\'"':
            quote = c
        elif c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
        elif c == ',' and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def closing(text, open_at):
    """The index of the parenthesis closing the one at open_at, or -1."""
    depth, quote = 0, None
    for i in range(open_at, len(text)):
        c = text[i]
        if quote:
            if c == quote:
                quote = None
        elif c in '\'"':
            quote = c
        elif c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                return i
    return -1


def raw_arg(text):
    """(mode, words before DEFAULT, default) of one argument as written."""
    m = re.match(r'^(?:(IN|OUT|INOUT|VARIADIC)\s+)?(.*?)(?:\s+DEFAULT\s+(.*))?$', text, re.S)
    return (m.group(1) or 'IN', ' '.join(m.group(2).split()), m.group(3))


def looks_like_signature(args, result):
    """Whether a span's arguments are declarations, not values."""
    if not args:
        return result is not None
    for a in args:
        if '=>' in a or re.match(r'^[\'"0-9(-]', a) or a.startswith('NULL') or a.startswith('ARRAY'):
            return False
    return any(len(raw_arg(a)[1].split()) >= 2 for a in args)


def signatures(path, text, routines):
    """(line, kind, name, args, result) of every signature quoted in text."""
    found = []
    line_of = lambda pos: text.count('\n', 0, pos) + 1
    blocks = list(re.finditer(r'^```[^\n]*\n(.*?)^```', text, re.S | re.M))
    for b in blocks:
        body = re.sub(r'--[^\n]*', '', b.group(1))
        for m in re.finditer(r'^\s*(PROCEDURE|FUNCTION|AGGREGATE)\s+([a-z_][a-z0-9_.]*)\s*\(', body, re.M):
            end = closing(body, m.end() - 1)
            if end < 0:
                found.append((line_of(b.start(1)), 'unreadable', m.group(2), None, None))
                continue
            found.append((line_of(b.start(1)) + body.count('\n', 0, m.start()), m.group(1).lower(),
                          m.group(2), split_top(body[m.end():end]), None))
    # Inline spans, outside fenced blocks (blanked, keeping the line numbers).
    outside = re.sub(r'^```[^\n]*\n.*?^```', lambda b: re.sub(r'[^\n]', ' ', b.group(0)), text, flags=re.S | re.M)
    for m in re.finditer(r'`([^`]+)`', outside):
        span = m.group(1)
        s = re.match(r'^([a-z_][a-z0-9_.]*)\(', span)
        if not s or s.group(1).split('.')[-1] not in routines or re.search(r'\[\s*,', span):
            continue            # (not a routine, or a usage with [, optional] arguments)
        end = closing(span, s.end() - 1)
        if end < 0:
            continue
        rest = span[end + 1:].strip()
        r = re.match(r'^→\s*(.+)$', rest, re.S)
        if rest and not r:
            continue
        args = split_top(span[s.end():end])
        result = ' '.join(r.group(1).split()) if r else None
        if looks_like_signature(args, result):
            found.append((line_of(m.start()), 'any', s.group(1), args, result))
    return found


def main():
    files = sys.argv[1:] or ['README.md'] + sorted(glob.glob('docs/*.md'))
    catalog = psql("""
      SELECT json_agg(json_build_object(
               'schema', n.nspname, 'name', p.proname,
               'kind', CASE p.prokind WHEN 'p' THEN 'procedure' WHEN 'a' THEN 'aggregate' ELSE 'function' END,
               'args', pg_get_function_arguments(p.oid), 'result', pg_get_function_result(p.oid)))
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
      JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'glicko2'""")
    routines = {}
    for r in catalog:
        r['args'] = split_top(r['args'])
        routines.setdefault(r['name'], []).append(r)

    quoted = []
    for path in files:
        text = open(path, encoding='utf-8').read()
        quoted += [(path,) + s for s in signatures(path, text, routines)]

    # Every type named, read by PostgreSQL (NULL: not a type).
    words = set()
    def note(args):
        for a in args:
            w = raw_arg(a)[1]
            words.add(w)
            if len(w.split()) >= 2:
                words.add(w.split(' ', 1)[1])
    for _, _, _, _, args, result in quoted:
        note(args or [])
        if result:
            note(split_top(result[5:].strip()[1:-1]) if result.startswith('TABLE') else
                 [result[6:] if result.startswith('SETOF ') else result])
    for r in catalog:
        note(r['args'])
        res = r['result'] or ''
        note(split_top(res[5:].strip()[1:-1]) if res.startswith('TABLE') else
             [res[6:] if res.startswith('SETOF ') else res])
    types = psql(f"""
      CREATE FUNCTION pg_temp.type_of(s text) RETURNS text LANGUAGE plpgsql AS $f$
        BEGIN RETURN format_type(to_regtype(s), NULL); EXCEPTION WHEN OTHERS THEN RETURN NULL; END $f$;
      SELECT json_object_agg(s, pg_temp.type_of(s)) FROM json_array_elements_text({literal(sorted(words))}::json) s""")

    def arg(text):
        """(mode, name, type) of one argument, or None if unreadable."""
        mode, words_, default = raw_arg(text)
        if len(words_.split()) >= 2:
            name, rest = words_.split(' ', 1)
            if types.get(rest) and re.match(r'^[a-z_][a-z0-9_]*$', name):
                return (mode, name, types[rest], default)
        if types.get(words_):
            return (mode, None, types[words_], default)
        return None

    def result_of(text):
        if text is None:
            return None
        if text.startswith('TABLE'):
            cols = [arg(c) for c in split_top(text[5:].strip()[1:-1])]
            return None if None in cols else ('TABLE', tuple((c[1], c[2]) for c in cols))
        if text.startswith('SETOF '):
            return ('SETOF', types.get(text[6:]))
        return ('', types.get(text))

    # Match each signature with the routines of its name, defaults compared
    # by PostgreSQL once names and types agree.
    pending, checks = [], []
    for path, line, kind, name, args, result in quoted:
        schema, _, bare = name.rpartition('.')
        mine = [a for a in map(arg, args or [])]
        cands = []
        for r in routines.get(bare, []):
            if schema and r['schema'] != schema or kind not in ('any', r['kind']):
                continue
            theirs = [arg(a) for a in r['args']]
            if None in mine or len(mine) != len(theirs):
                continue
            if any(m[:3] != t[:3] or (m[3] is None) != (t[3] is None) for m, t in zip(mine, theirs)):
                continue
            if result is not None and result_of(result) != result_of(r['result']):
                continue
            pairs = [(m[3], t[3], t[2]) for m, t in zip(mine, theirs) if m[3] is not None]
            cands.append((r, len(checks), len(pairs)))
            checks += pairs
        pending.append((path, line, name, args, result, cands))
    same = psql(f"""
      CREATE FUNCTION pg_temp.same(a text, b text, t text) RETURNS boolean LANGUAGE plpgsql AS $f$
        DECLARE r boolean;
        BEGIN
          IF t LIKE 'any%' THEN RETURN a = b; END IF;
          EXECUTE format('SELECT (%s)::%s IS NOT DISTINCT FROM (%s)::%s', a, t, b, t) INTO r;
          RETURN r;
        EXCEPTION WHEN OTHERS THEN RETURN false;
        END $f$;
      SELECT coalesce(json_agg(pg_temp.same(c->>0, c->>1, c->>2) ORDER BY i), '[]')
      FROM json_array_elements({literal(checks)}::json) WITH ORDINALITY AS x(c, i)""")

    bad = 0
    for path, line, name, args, result, cands in pending:
        if any(all(same[first:first + n]) for _, first, n in cands):
            continue
        bad += 1
        shown = f"{name}({', '.join(args or [])})" + (f' → {result}' if result else '')
        print(f'{path}:{line}: {shown}')
        for r in routines.get(name.rpartition('.')[2], []):
            print(f"  the catalog's: {r['kind']} {r['schema']}.{r['name']}({', '.join(r['args'])})"
                  + (f" → {r['result']}" if r['result'] and r['kind'] != 'procedure' else ''))
    print(f'{len(quoted)} signatures quoted in {len(files)} files, {bad} not the catalog\'s')
    sys.exit(1 if bad or not quoted else 0)


if __name__ == '__main__':
    main()
