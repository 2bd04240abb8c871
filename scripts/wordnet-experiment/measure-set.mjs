const { measureSet } = await import(`${process.cwd()}/.bench-build/test/bench/topics-quality.js`);
const set = process.argv[2];
const r = await measureSet(set);
const f = (x) => x.toFixed(3);
console.log(`${set} ${process.env.TOPQ_WN_PATH ? 'wn' : 'base'} syn=${process.env.TOPQ_SYN ?? 1} hyp=${process.env.TOPQ_HYP ?? 0} langs=${process.env.TOPQ_LANGS ?? 'en,und'} full ${f(r.full.precision)}/${f(r.full.recall)} topics ${r.full.topics} mixed ${f(r.full.mixedLanguageShare)} | hourly ${f(r.hourly.precision)}/${f(r.hourly.recall)} | stable ${f(r.stableHourly)} ${f(r.stableFull)}`);
