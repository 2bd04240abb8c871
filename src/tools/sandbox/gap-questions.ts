// The questions the sandbox's assistant could not answer: paraphrases of a known set of topics
// (documentation gaps), in four languages, with synonyms, other word orders, lower case and typos,
// the way real users ask. Every text comes from one table built once from the lists below, so a
// test can look up the truth of any served unanswered question: its topic and language
// (`gapTruthOf`). Topics are asked unevenly (a few big gaps, a long tail), like real traffic.
import { pick, type Rng } from './prng.js';

export type GapLanguage = 'en' | 'de' | 'fr' | 'es';

interface TopicSpec {
  id: string;
  /** Relative frequency of the topic among unanswered questions. */
  weight: number;
  /** Noun phrases naming the subject, per language. */
  subjects: Partial<Record<GapLanguage, readonly string[]>> & { en: readonly string[] };
}

/** The gaps: ids are the truth labels. Subjects share generic words across topics on purpose. */
const TOPICS: readonly TopicSpec[] = [
  {
    id: 'okta-sso', weight: 12, subjects: {
      en: ['SSO with Okta', 'Okta single sign-on', 'okta sso', 'Okta SAML login'],
      de: ['SSO mit Okta', 'Okta Single Sign-On', 'die Okta SAML Anmeldung'],
      fr: ['le SSO avec Okta', "l'authentification unique Okta", 'la connexion SAML Okta'],
      es: ['el SSO con Okta', 'el inicio de sesión único de Okta', 'el login SAML de Okta'],
    },
  },
  {
    id: 'custom-domain', weight: 9, subjects: {
      en: ['a custom domain', 'my own custom domain', 'custom domain DNS records', 'a custom domain CNAME'],
      de: ['eine eigene Domain', 'die benutzerdefinierte Domain', 'den CNAME für meine Domain'],
      fr: ['un domaine personnalisé', 'mon propre domaine personnalisé', 'le CNAME du domaine personnalisé'],
      es: ['un dominio personalizado', 'mi propio dominio personalizado', 'el CNAME del dominio personalizado'],
    },
  },
  {
    id: 'webhook-signature', weight: 8, subjects: {
      en: ['webhook signature verification', 'the webhook signing secret', 'webhook signatures', 'verifying a webhook signature'],
      de: ['die Webhook Signatur', 'das Webhook Secret zur Signatur', 'die Prüfung der Webhook Signatur'],
      fr: ['la signature des webhooks', 'le secret de signature du webhook', 'la vérification de signature webhook'],
      es: ['la firma de los webhooks', 'el secreto de firma del webhook', 'la verificación de la firma del webhook'],
    },
  },
  {
    id: 'rate-limits', weight: 7, subjects: {
      en: ['API rate limits', 'the 429 rate limit', 'rate limiting of the API', 'rate limit errors (429)'],
      de: ['das Rate Limit der API', 'den Fehler 429 Rate Limit'],
      fr: ["la limite de débit de l'API", "l'erreur 429 de limite de débit"],
      es: ['el límite de tasa de la API', 'el error 429 de límite de tasa'],
    },
  },
  {
    id: 'dark-mode', weight: 6, subjects: {
      en: ['dark mode', 'a dark mode theme', 'dark mode colours', 'the dark mode toggle'],
      de: ['den Dark Mode', 'ein dunkles Farbschema (Dark Mode)'],
      fr: ['le mode sombre', 'un thème en mode sombre'],
      es: ['el modo oscuro', 'un tema en modo oscuro'],
    },
  },
  {
    id: 'cursor-pagination', weight: 5, subjects: {
      en: ['cursor pagination', 'pagination cursors', 'paging with nextCursor', 'the nextCursor pagination field'],
      de: ['die Cursor Paginierung', 'das Feld nextCursor der Paginierung'],
      fr: ['la pagination par curseur', 'le champ nextCursor de pagination'],
      es: ['la paginación con cursor', 'el campo nextCursor de paginación'],
    },
  },
  {
    id: 'openapi-playground', weight: 5, subjects: {
      en: ['the OpenAPI playground', 'the API playground for my OpenAPI spec', 'playground requests from OpenAPI', 'OpenAPI playground auth'],
      de: ['den OpenAPI Playground', 'Anfragen im OpenAPI Playground'],
      fr: ['le playground OpenAPI', 'les requêtes du playground OpenAPI'],
      es: ['el playground de OpenAPI', 'las peticiones del playground OpenAPI'],
    },
  },
  {
    id: 'versioned-docs', weight: 4, subjects: {
      en: ['versioned docs', 'docs versioning', 'a version switcher for the docs', 'several versions of the docs'],
      de: ['versionierte Dokumentation', 'mehrere Versionen der Dokumentation'],
      fr: ['la documentation versionnée', 'plusieurs versions de la documentation'],
      es: ['la documentación versionada', 'varias versiones de la documentación'],
    },
  },
  {
    id: 'slack-alerts', weight: 4, subjects: {
      en: ['Slack alerts', 'the Slack integration alerts', 'alerts in a Slack channel', 'Slack notifications and alerts'],
      de: ['Slack Benachrichtigungen', 'Benachrichtigungen im Slack Kanal'],
      fr: ['les alertes Slack', 'les alertes dans un canal Slack'],
      es: ['las alertas de Slack', 'las alertas en un canal de Slack'],
    },
  },
  {
    id: 'search-indexing', weight: 3, subjects: {
      en: ['search indexing', 'pages missing from the search index', 'reindexing the search', 'the search index update'],
      de: ['den Suchindex', 'fehlende Seiten im Suchindex'],
      fr: ["l'indexation de la recherche", "les pages absentes de l'index de recherche"],
      es: ['la indexación de la búsqueda', 'las páginas que faltan en el índice de búsqueda'],
    },
  },
  {
    id: 'vat-invoices', weight: 3, subjects: {
      en: ['VAT invoices', 'an invoice with my VAT number', 'VAT on invoices', 'downloading VAT invoices'],
      de: ['Rechnungen mit USt-IdNr (VAT)', 'eine Rechnung mit VAT Nummer'],
      fr: ['les factures avec TVA', 'une facture avec mon numéro de TVA'],
      es: ['las facturas con IVA', 'una factura con mi número de IVA'],
    },
  },
  {
    id: 'github-app', weight: 3, subjects: {
      en: ['the GitHub app', 'GitHub app permissions', 'installing the GitHub app', 'the GitHub app sync'],
      de: ['die GitHub App', 'die Berechtigungen der GitHub App'],
      fr: ["l'application GitHub", "les permissions de l'application GitHub"],
      es: ['la aplicación de GitHub', 'los permisos de la aplicación de GitHub'],
    },
  },
  {
    id: 'redirects', weight: 2, subjects: {
      en: ['redirects', 'a redirect rule', 'redirects for old URLs', '301 redirects'],
      de: ['Weiterleitungen', 'eine 301 Weiterleitung für alte URLs'],
      fr: ['les redirections', 'une redirection 301 des anciennes URL'],
      es: ['las redirecciones', 'una redirección 301 de URL antiguas'],
    },
  },
  {
    id: 'mermaid-diagrams', weight: 2, subjects: {
      en: ['Mermaid diagrams', 'a Mermaid diagram in MDX', 'rendering Mermaid diagrams', 'Mermaid diagram support'],
      de: ['Mermaid Diagramme', 'ein Mermaid Diagramm in MDX'],
      fr: ['les diagrammes Mermaid', 'un diagramme Mermaid dans MDX'],
      es: ['los diagramas Mermaid', 'un diagrama Mermaid en MDX'],
    },
  },
];

/** Question shapes per language: `{s}` the subject, `{v}` a verb, `{n}` a noun about the trouble. */
const TEMPLATES: Record<GapLanguage, { forms: readonly string[]; verbs: readonly string[]; nouns: readonly string[] }> = {
  en: {
    forms: [
      'How do I {v} {s}?', 'How can I {v} {s}', '{s} {n}', '{n} {s}', 'Is there a way to {v} {s}?',
      '{s} is not working, what should I do?', 'Where are the docs for {s}?', 'I need help to {v} {s}.',
      'Can you explain {s}?', 'what about {s}? {n}',
    ],
    verbs: ['set up', 'configure', 'enable', 'use', 'fix'],
    nouns: ['setup', 'configuration', 'error', 'not working', 'docs'],
  },
  de: {
    forms: ['Wie kann ich {s} {v}?', 'Wie richte ich {s} ein?', '{s} funktioniert nicht', 'Gibt es eine Anleitung für {s}?', 'Ich möchte {s} {v}.'],
    verbs: ['einrichten', 'konfigurieren', 'aktivieren', 'nutzen'],
    nouns: [],
  },
  fr: {
    forms: ['Comment configurer {s} ?', 'Comment {v} {s} ?', '{s} ne fonctionne pas', 'Où est la documentation sur {s} ?', "J'ai besoin d'aide pour {v} {s}."],
    verbs: ['configurer', 'activer', 'utiliser', 'mettre en place'],
    nouns: [],
  },
  es: {
    forms: ['¿Cómo configuro {s}?', '¿Cómo puedo {v} {s}?', '{s} no funciona', '¿Dónde está la documentación de {s}?', 'Necesito ayuda para {v} {s}.'],
    verbs: ['configurar', 'activar', 'usar', 'habilitar'],
    nouns: [],
  },
};

const LANGUAGES: readonly GapLanguage[] = ['en', 'de', 'fr', 'es'];

/** Truth of one served question. `label` is `topic/language`: questions of two languages are two gaps. */
export interface GapTruth {
  topic: string;
  language: GapLanguage;
  label: string;
}

/** One typo in the longest word of ≥ 5 letters: two letters swapped, one dropped, or one doubled. */
export function typo(text: string, kind: number): string {
  const words = text.split(' ');
  let at = -1;
  for (let i = 0; i < words.length; i++) if (/^\p{L}{5,}$/u.test(words[i]!) && (at < 0 || words[i]!.length > words[at]!.length)) at = i;
  if (at < 0) return text;
  const w = words[at]!;
  const p = 1 + ((w.length + kind) % (w.length - 2));
  words[at] = kind === 0 ? w.slice(0, p) + w[p + 1] + w[p] + w.slice(p + 2) : kind === 1 ? w.slice(0, p) + w.slice(p + 1) : w.slice(0, p) + w[p] + w.slice(p);
  return words.join(' ');
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Every base text of a topic in a language: forms × subjects × verbs × nouns. */
function baseTexts(spec: TopicSpec, lang: GapLanguage): string[] {
  const t = TEMPLATES[lang];
  const out: string[] = [];
  for (const form of t.forms) {
    for (const s of spec.subjects[lang] ?? []) {
      const verbs = form.includes('{v}') ? t.verbs : [''];
      const nouns = form.includes('{n}') ? t.nouns : [''];
      for (const v of verbs) for (const n of nouns) out.push(capitalize(form.replace('{s}', s).replace('{v}', v).replace('{n}', n)));
    }
  }
  return out;
}

interface Table {
  /** Per topic (index in TOPICS) and language: every variant text. */
  texts: Map<string, string[]>;
  truth: Map<string, GapTruth>;
  weights: number[];
}

/** Built once: every base text, and its variants (lower case; each of the three typos). */
const TABLE: Table = (() => {
  const texts = new Map<string, string[]>();
  const truth = new Map<string, GapTruth>();
  const ambiguous = new Set<string>();
  for (const spec of TOPICS) {
    for (const lang of LANGUAGES) {
      if (!spec.subjects[lang]) continue;
      const list: string[] = [];
      for (const base of baseTexts(spec, lang)) {
        for (const v of [base, base.toLowerCase(), typo(base, 0), typo(base, 1), typo(base.toLowerCase(), 2)]) {
          list.push(v);
          const known = truth.get(v);
          if (known && known.label !== `${spec.id}/${lang}`) ambiguous.add(v);
          truth.set(v, { topic: spec.id, language: lang, label: `${spec.id}/${lang}` });
        }
      }
      texts.set(`${spec.id}/${lang}`, list);
    }
  }
  // A text two topics could produce has no single truth: it is left out of the lookup.
  for (const v of ambiguous) truth.delete(v);
  return { texts, truth, weights: TOPICS.map((t) => t.weight) };
})();

const TOTAL_WEIGHT = TABLE.weights.reduce((a, b) => a + b, 0);

/** The topic and language of a question the sandbox served as unanswered; null for other texts. */
export function gapTruthOf(text: string): GapTruth | null {
  return TABLE.truth.get(text) ?? null;
}

/** An English question shape with `{s}` for the subject (the bench's long tail of other topics). */
export function questionForm(rng: Rng): string {
  const t = TEMPLATES.en;
  return capitalize(pick(rng, t.forms).replace('{v}', pick(rng, t.verbs)).replace('{n}', pick(rng, t.nouns)));
}

/**
 * An unanswered question: a topic by weight, a language (English 70%, else German, French or
 * Spanish when the topic has them), then one of its variants, all from `rng`.
 */
export function makeGapQuestion(rng: Rng): string {
  let r = rng() * TOTAL_WEIGHT;
  let i = 0;
  while (i < TOPICS.length - 1 && r >= TABLE.weights[i]!) r -= TABLE.weights[i++]!;
  const spec = TOPICS[i]!;
  const l = rng();
  const lang: GapLanguage = l < 0.7 ? 'en' : l < 0.8 ? 'de' : l < 0.9 ? 'fr' : 'es';
  const list = TABLE.texts.get(`${spec.id}/${spec.subjects[lang] ? lang : 'en'}`)!;
  return pick(rng, list);
}
