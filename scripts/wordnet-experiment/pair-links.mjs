import { readFileSync } from 'node:fs';
const { questionFeatures } = await import(`${process.cwd()}/.bench-build/src/outputs/topics/question-features.js`);
const set = readFileSync(`${process.cwd()}/test/fixtures/topics-quality/${process.argv[2]}.jsonl`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const qs = set.filter((q) => q.language === 'en').map((q) => { const f = questionFeatures(q.question); return { ...q, w: new Set([...f.terms.keys()].filter((k) => k.startsWith('w:'))), s: new Set([...f.terms.keys()].filter((k) => k.startsWith('s:'))), h: new Set([...f.terms.keys()].filter((k) => k.startsWith('h:'))) }; });
const c = { sameW: 0, diffW: 0, same: 0, diff: 0, sameNewS: 0, diffNewS: 0, sameNewH: 0, diffNewH: 0 };
const ex = [];
for (let i = 0; i < qs.length; i++) for (let j = i + 1; j < qs.length; j++) {
  const a = qs[i], b = qs[j]; const same = a.subject === b.subject && !a.subject.startsWith('singleton');
  same ? c.same++ : c.diff++;
  const sw = [...a.w].some((x) => b.w.has(x));
  if (sw) same ? c.sameW++ : c.diffW++;
  // new shared synset where the word itself differs: synset shared but not via identical word
  const ss = [...a.s].filter((x) => b.s.has(x));
  if (ss.length && !sw) { same ? c.sameNewS++ : c.diffNewS++; if (ex.length < 15) ex.push(`${same ? 'SAME' : 'diff'} ${a.question} || ${b.question}`); }
  const hh = [...a.h].some((x) => b.h.has(x));
  if (hh && !sw) same ? c.sameNewH++ : c.diffNewH++;
}
console.log(process.argv[2], JSON.stringify(c)); console.log(ex.join('\n'));
