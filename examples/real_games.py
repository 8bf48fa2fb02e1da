#!/usr/bin/python3
"""real_games.py — print SQL that loads two real data sets into schema real_games.

The data are read at run time from Debian's r-cran-bradleyterry2 (Turner and
Firth's BradleyTerry2 R package), whose data/Rdata.rdb holds R's lazy-load
database: Rdata.rdx is a gzip-compressed serialized index (name -> offset,
length in Rdata.rdb); each object in Rdata.rdb is a 4-byte big-endian length
followed by a zlib stream of R's XDR serialization, which Debian's
python3-rdata parses once the "RDX3\\n" header of an .rda file is put in
front.  Nothing of the data is kept in this repository.

  icehockey  NCAA men's Division I ice hockey 2009-10: 1083 games, 58 teams;
             result is the visitor's (1 win, 0.5 tie, 0 loss); home.ice is
             TRUE when the opponent is on home ice, FALSE on neutral ground.
  football   English Premier League 2008-9 to 2012-13: 1900 matches of
             20 teams a season (29 in all); result is the home team's
             (1 win, 0 draw, -1 loss); seasons only, no dates.

Usage: real_games.py [DIR]  (DIR: the package's data directory)
"""
import gzip
import struct
import sys
import zlib

import rdata

DATA_DIR = "/usr/lib/R/site-library/BradleyTerry2/data"


def parse(serialized):
    return rdata.conversion.convert(rdata.parser.parse_data(b"RDX3\n" + serialized))


def load(data_dir):
    with open(f"{data_dir}/Rdata.rdx", "rb") as f:
        index = parse(gzip.decompress(f.read()))["variables"]
    with open(f"{data_dir}/Rdata.rdb", "rb") as f:
        rdb = f.read()

    def get(name):
        offset, length = (int(x) for x in index[name])
        blob = rdb[offset:offset + length]
        size = struct.unpack(">I", blob[:4])[0]
        serialized = zlib.decompress(blob[4:])
        if len(serialized) != size:
            sys.exit(f"{name}: {len(serialized)} bytes, the header says {size}")
        return parse(serialized)

    return get("icehockey"), get("football")


def copy_value(x):
    text = str(x)
    if any(c in text for c in "\t\n\\"):
        sys.exit(f"unexpected character in {text!r}")
    return text


def main():
    hockey, football = load(sys.argv[1] if len(sys.argv) > 1 else DATA_DIR)
    out = sys.stdout
    out.write("""BEGIN;
DROP SCHEMA IF EXISTS real_games CASCADE;
CREATE SCHEMA real_games;

-- As in the package; game is the row number there.
CREATE TABLE real_games.hockey (
  game int PRIMARY KEY, date date NOT NULL,
  visitor text NOT NULL, v_goals int NOT NULL,
  opponent text NOT NULL, o_goals int NOT NULL,
  conference text NOT NULL,
  result float8 NOT NULL CHECK (result IN (0, 0.5, 1)),   -- the visitor's
  home_ice boolean NOT NULL);                             -- opponent at home
COPY real_games.hockey FROM stdin;
""")
    for i, row in enumerate(hockey.itertuples(index=False), start=1):
        date = str(int(row.date))
        out.write("\t".join(copy_value(x) for x in (
            i, f"{date[:4]}-{date[4:6]}-{date[6:]}", row.visitor, int(row.v_goals),
            row.opponent, int(row.o_goals), row.conference, float(row.result),
            "t" if row[7] else "f")) + "\n")
    out.write("""\\.

CREATE TABLE real_games.epl (
  match int PRIMARY KEY, season text NOT NULL,
  home text NOT NULL, away text NOT NULL,
  result int NOT NULL CHECK (result IN (-1, 0, 1)));    -- the home team's
COPY real_games.epl FROM stdin;
""")
    for i, row in enumerate(football.itertuples(index=False), start=1):
        out.write("\t".join(copy_value(x) for x in (
            i, row.season, row.home, row.away, int(row.result))) + "\n")
    out.write("""\\.

-- In the form glicko2_evaluate reads: the visitor is the player, so home is
-- false (the opponent has home ice) or NULL (neutral ground); periods are
-- weeks from Monday.
CREATE VIEW real_games.hockey_games AS
  SELECT date_trunc('week', date)::date AS period, date, visitor AS player_id,
         opponent AS opponent_id, result AS score,
         CASE WHEN home_ice THEN false END AS home
  FROM real_games.hockey;

-- The home team is the player; a period is a season (there are no dates).
CREATE VIEW real_games.epl_games AS
  SELECT season AS period, home AS player_id, away AS opponent_id,
         (result + 1) / 2.0::float8 AS score, true AS home
  FROM real_games.epl;
COMMIT;
""")


if __name__ == "__main__":
    main()
