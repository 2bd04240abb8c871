// EXPERIMENT (issue 37, topq): English words → their WordNet 3.1 most frequent sense's synset and
// its first hypernym, so paraphrases with synonyms share a feature. Loaded lazily, once per process.
import { readFileSync } from 'node:fs';

interface Sense { synset: string; hypernym: string }

let map: Map<string, Sense> | undefined;

function load(): Map<string, Sense> {
  if (map) return map;
  map = new Map();
  const path = process.env.TOPQ_WN_PATH;
  if (!path) return map;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const [lemma, synset, hypernym] = line.split('\t');
    map.set(lemma!, { synset: synset!, hypernym: hypernym! });
  }
  return map;
}

// WordNet's morphy detachment rules (no exception lists): noun, verb and adjective endings.
const RULES: readonly [string, string][] = [
  ['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y'],
  ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''], ['er', ''], ['est', ''], ['er', 'e'], ['est', 'e'],
];

/** The sense of an English word (lower case), trying its base forms; undefined when WordNet has none shared. */
export function senseOf(word: string): Sense | undefined {
  const m = load();
  const direct = m.get(word);
  if (direct) return direct;
  for (const [suffix, base] of RULES) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) {
      const s = m.get(word.slice(0, -suffix.length) + base);
      if (s) return s;
    }
  }
  return undefined;
}

export const SYN = { languages: (process.env.TOPQ_LANGS ?? 'en,und').split(','), syn: Number(process.env.TOPQ_SYN ?? 1), hyp: Number(process.env.TOPQ_HYP ?? 0), replace: process.env.TOPQ_MODE === 'replace' };
