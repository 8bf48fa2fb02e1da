// bench/node/rate.js RATINGS.csv GAMES.csv TAU > NEW.csv — the export path of
// bench/run.sh: one period rated outside the database, the way a user with a
// script would, with the npm glicko2 package (package-lock.json pins it).
//   RATINGS.csv: player_id,rating,rd,volatility   (empty fields: unrated)
//   GAMES.csv:   player_id,opponent_id,score
//   NEW.csv:     player_id,rating,rd,volatility for every player
// Players without games get the package's Step 6 (no RD cap).
'use strict';
const fs = require('fs');
const readline = require('readline');
const { Glicko2 } = require('glicko2');

function lines(file) {
  return readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
}

async function main() {
  const [ratingsFile, gamesFile, tau] = process.argv.slice(2);
  const ranking = new Glicko2({ tau: Number(tau), rating: 1500, rd: 350, vol: 0.06 });
  const players = new Map();
  const player = (id) => {
    let p = players.get(id);
    if (p === undefined) {
      p = ranking.makePlayer();
      players.set(id, p);
    }
    return p;
  };

  for await (const line of lines(ratingsFile)) {
    const [id, rating, rd, vol] = line.split(',');
    players.set(id, rating === '' ? ranking.makePlayer()
                                  : ranking.makePlayer(Number(rating), Number(rd), Number(vol)));
  }
  for await (const line of lines(gamesFile)) {
    const [p, o, score] = line.split(',');
    ranking.addResult(player(p), player(o), Number(score));
  }
  ranking.updateRatings();

  const out = fs.createWriteStream(null, { fd: 1 });
  let chunk = [];
  for (const [id, p] of players) {
    chunk.push(`${id},${p.getRating()},${p.getRd()},${p.getVol()}\n`);
    if (chunk.length === 10000) {
      if (!out.write(chunk.join(''))) await new Promise((resolve) => out.once('drain', resolve));
      chunk = [];
    }
  }
  out.end(chunk.join(''));
}

main().catch((e) => { console.error(e); process.exit(1); });
