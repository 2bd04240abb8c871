// A question as the topic step compares it: its language and its features. Offline and
// deterministic: Unicode normalization (NFKC, case), words (letter and digit runs), stop words and
// Snowball stemmers from @orama (per language), then word stems plus the character trigrams of
// each stem (typos keep most trigrams).
//
// Language: the language whose stop words the question uses most (a tie or none: 'und'); a
// question in a script without such lists is named by its script ('script:Cyrillic'). Topics
// never mix two known languages (cluster-questions.ts).
import { stemmer as stemDe } from '@orama/stemmers/german';
import { stemmer as stemEn } from '@orama/stemmers/english';
import { stemmer as stemEs } from '@orama/stemmers/spanish';
import { stemmer as stemFr } from '@orama/stemmers/french';
import { stemmer as stemIt } from '@orama/stemmers/italian';
import { stemmer as stemNl } from '@orama/stemmers/dutch';
import { stemmer as stemPt } from '@orama/stemmers/portuguese';
import { stopwords as stopDe } from '@orama/stopwords/german';
import { stopwords as stopEn } from '@orama/stopwords/english';
import { stopwords as stopEs } from '@orama/stopwords/spanish';
import { stopwords as stopFr } from '@orama/stopwords/french';
import { stopwords as stopIt } from '@orama/stopwords/italian';
import { stopwords as stopNl } from '@orama/stopwords/dutch';
import { stopwords as stopPt } from '@orama/stopwords/portuguese';
import { franc } from 'franc-min';

interface Language {
  code: string;
  /** ISO 639-3, as franc names it. */
  iso3: string;
  stop: ReadonlySet<string>;
  stem: (word: string) => string;
}

const LANGUAGES: readonly Language[] = [
  { code: 'en', iso3: 'eng', stop: new Set(stopEn), stem: stemEn },
  { code: 'de', iso3: 'deu', stop: new Set(stopDe), stem: stemDe },
  { code: 'fr', iso3: 'fra', stop: new Set(stopFr), stem: stemFr },
  { code: 'es', iso3: 'spa', stop: new Set(stopEs), stem: stemEs },
  { code: 'pt', iso3: 'por', stop: new Set(stopPt), stem: stemPt },
  { code: 'it', iso3: 'ita', stop: new Set(stopIt), stem: stemIt },
  { code: 'nl', iso3: 'nld', stop: new Set(stopNl), stem: stemNl },
];

/** Stop words of every language: what an undetermined question drops. */
const ANY_STOP = new Set(LANGUAGES.flatMap((l) => [...l.stop]));
export const UNDETERMINED = 'und';

/**
 * Whether questions or topics of languages `a` and `b` may share a topic (issue 37: a topic is in
 * one language): the same language; an undetermined question only with undetermined ones or the
 * project's main language (`main`: the most used), never with a third language's.
 */
export function sameTopicLanguage(a: string, b: string, main: string): boolean {
  return a === b || (a === UNDETERMINED && b === main) || (b === UNDETERMINED && a === main);
}

/** Scripts named as languages (no stop-word list): their questions are never merged with Latin ones. */
// Kana before Han: Japanese writes kanji too (a question with kana is Japanese; Han alone: Chinese or kanji only).
const SCRIPTS = ['Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Hiragana', 'Katakana', 'Hangul', 'Han', 'Thai', 'Devanagari', 'Armenian', 'Georgian'];
const SCRIPT_RES = SCRIPTS.map((s) => ({ name: s === 'Hiragana' || s === 'Katakana' ? 'Japanese' : s, re: new RegExp(`\\p{Script=${s}}`, 'u') }));

/**
 * Lower case NFKC words of a text: runs of letters, marks and digits. Apostrophes split, and a
 * lone Latin letter left of one is dropped ("l'authentification" → "authentification"). A run of
 * CJK text stays one word; its character trigrams still compare.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const w of text.normalize('NFKC').toLowerCase().match(WORD) ?? []) if (w.length > 1 || !LATIN_LETTER.test(w)) out.push(w);
  return out;
}

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const LATIN_LETTER = /^\p{Script=Latin}$/u;

/**
 * The language with most stop words among the words; languages tied on that count are told apart
 * by franc's trigram model over the text (restricted to them: on short texts franc alone guesses
 * wrong too often). No stop word at all ("okta sso setup"): undetermined.
 */
export function detectLanguage(ws: readonly string[], text: string): string {
  for (const { name, re } of SCRIPT_RES) {
    if (ws.some((w) => re.test(w))) return `script:${name}`;
  }
  let tied: Language[] = [];
  let bestHits = 0;
  for (const l of LANGUAGES) {
    let hits = 0;
    for (const w of ws) if (l.stop.has(w)) hits++;
    if (hits > bestHits) [tied, bestHits] = [[l], hits];
    else if (hits === bestHits && hits > 0) tied.push(l);
  }
  if (tied.length === 0) return byLetters(text);
  if (tied.length === 1) return tied[0]!.code;
  const iso3 = franc(text, { only: tied.map((l) => l.iso3), minLength: 3 });
  return tied.find((l) => l.iso3 === iso3)?.code ?? UNDETERMINED;
}

/**
 * A question with no stop word ("eigene domain einrichten", "okta sso setup"): a letter only one of
 * the languages writes names it; otherwise undetermined (grouped only with undetermined questions
 * and the project's main language: cluster-questions.ts).
 */
function byLetters(text: string): string {
  const t = text.toLowerCase();
  for (const [code, re] of LETTERS) if (re.test(t)) return code;
  return UNDETERMINED;
}

const LETTERS: readonly [string, RegExp][] = [['de', /[äöüß]/u], ['es', /[ñ¿¡]/u], ['fr', /[çœæ]|[èêë]/u], ['pt', /[ãõ]/u]];

/** Scripts written without spaces between words: segmented by Intl.Segmenter, compared by character bigrams. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const HIRAGANA_ONLY = /^\p{Script=Hiragana}+$/u;
const SEGMENTER = new Intl.Segmenter('ja', { granularity: 'word' });

/**
 * The words of a CJK run: its word-like segments (Intl.Segmenter, ICU's dictionary), without the
 * runs of hiragana alone (particles and verb endings: を, の, ください).
 */
function cjkWords(run: string): string[] {
  return [...SEGMENTER.segment(run)].filter((s) => s.isWordLike && !HIRAGANA_ONLY.test(s.segment)).map((s) => s.segment);
}

export interface QuestionFeatures {
  language: string;
  /** Feature → count: 'w:stem' for words, 'c:abc' for character trigrams of stems. */
  terms: Map<string, number>;
  /** 'w:stem' → the first word of the question it came from (labels show words, not stems). */
  surface: Map<string, string>;
}

/** Removes accents after stemming, so "Prüfung" and "Prufung" share their trigrams. */
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');

export function questionFeatures(text: string): QuestionFeatures {
  const ws = words(text);
  const language = detectLanguage(ws, text);
  const lang = LANGUAGES.find((l) => l.code === language);
  const stop = lang?.stop ?? ANY_STOP;
  const stem = lang?.stem ?? stemEn;
  const terms = new Map<string, number>();
  const surface = new Map<string, string>();
  const add = (k: string) => terms.set(k, (terms.get(k) ?? 0) + 1);
  for (const w of ws) {
    if (CJK.test(w)) {
      // Character bigrams, not trigrams: a CJK word is one to four characters.
      for (const seg of cjkWords(w)) {
        add(`w:${seg}`);
        if (!surface.has(`w:${seg}`)) surface.set(`w:${seg}`, seg);
        const chars = [...seg];
        for (let i = 0; i + 2 <= chars.length; i++) add(`c:${chars[i]}${chars[i + 1]}`);
      }
      continue;
    }
    if (stop.has(w)) continue;
    const s = fold(/^\p{Script=Latin}+$/u.test(w) ? stem(w) : w);
    add(`w:${s}`);
    if (!surface.has(`w:${s}`)) surface.set(`w:${s}`, w);
    const padded = `^${s}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`);
  }
  return { language, terms, surface };
}
