import { makeGapQuestion, gapTruthOf } from '/work/wt/i22/dist/src/sandbox/gap-questions.js';
import { mulberry32 } from '/work/wt/i22/dist/src/sandbox/prng.js';
import { clusterQuestions } from '/work/wt/i22/dist/src/topics/cluster-questions.js';
const N = Number(process.argv[2] ?? 3000), th = Number(process.argv[3] ?? 0.3);
const rng = mulberry32(Number(process.env.SEED ?? 7));
const counts = new Map();
for (let i = 0; i < N; i++) { const q = makeGapQuestion(rng); counts.set(q, (counts.get(q) ?? 0) + 1); }
const qs = [...counts].map(([text, count]) => ({ text, count }));
const t0 = performance.now();
const c = clusterQuestions(qs, { threshold: th, mergeThreshold: Number(process.env.MT ?? 0.5) });
const ms = performance.now() - t0;
const c2 = (x) => x * (x - 1) / 2;
const cell = new Map(), lab = new Map(), clu = new Map();
qs.forEach((q, i) => { const l = gapTruthOf(q.text)?.label; if (!l) return; const t = c.topicOf[i];
  const k = l + '|' + t; cell.set(k, (cell.get(k) ?? 0) + 1); lab.set(l, (lab.get(l) ?? 0) + 1); clu.set(t, (clu.get(t) ?? 0) + 1); });
const both = [...cell.values()].reduce((a, b) => a + c2(b), 0), sameT = [...lab.values()].reduce((a, b) => a + c2(b), 0), sameP = [...clu.values()].reduce((a, b) => a + c2(b), 0);
console.log({ distinct: qs.length, topics: c.topics.length, labels: lab.size, precision: both / sameP, recall: both / sameT, ms: Math.round(ms) });
if (process.argv[4]) { for (const t of c.topics.slice(0, 60)) { const ls = {}; for (const m of t.members) { const l = gapTruthOf(qs[m].text)?.label; ls[l] = (ls[l] ?? 0) + 1; } console.log(t.language, qs[t.members[0]].text, JSON.stringify(ls)); } }
if (process.argv[5]) { const by = new Map(); c.topics.forEach((t, ti) => { for (const m of t.members) { const l = gapTruthOf(qs[m].text)?.label; if (!by.has(l)) by.set(l, new Map()); by.get(l).set(ti, (by.get(l).get(ti) ?? 0) + 1); } });
 for (const [l, m] of by) if (m.size > 1) console.log(l, JSON.stringify([...m].map(([ti, n]) => [n, c.topics[ti].language, qs[c.topics[ti].members[0]].text])));
}
