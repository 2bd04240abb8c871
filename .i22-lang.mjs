import { makeGapQuestion, gapTruthOf } from '/work/wt/i22/dist/src/sandbox/gap-questions.js';
import { mulberry32 } from '/work/wt/i22/dist/src/sandbox/prng.js';
import { words, detectLanguage } from '/work/wt/i22/dist/src/topics/question-features.js';
const rng = mulberry32(3); const st = [0, 0, 0]; const bad = [];
for (let i = 0; i < 3000; i++) {
  const q = makeGapQuestion(rng); const t = gapTruthOf(q); if (!t) continue;
  const a = detectLanguage(words(q), q); st[a === t.language ? 0 : a === 'und' ? 1 : 2]++;
  if (a !== t.language && a !== 'und' && bad.length < 15) bad.push(q + ' => ' + a);
}
console.log(st); console.log(bad.join('\n'));
