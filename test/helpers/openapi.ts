// Validates a real HTTP response (status + JSON body) against the API's published OpenAPI files in
// docs/api/, not against our zod schemas: the sandbox is then checked against the vendor's contract,
// not against the code it shares with the client. Generic over method and path: a response of an
// endpoint added later is covered by adding a test case, nothing here changes.
//
// analytics.openapi.json is OpenAPI 3.1 (JSON Schema 2020-12: Ajv2020); static-export.openapi.json
// is 3.0 (draft-07-like schemas with `nullable: true`, which Ajv understands next to `type`). Formats
// used by the files (date-time, uri, ulid) are checked by the rules below. A status the operation
// does not declare (the analytics spec declares no 401/403/404/429) is reported as a problem too.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

interface OpenApiDoc {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  components?: Record<string, unknown>;
}

interface Spec {
  name: string;
  doc: OpenApiDoc;
  /** The servers' path prefix: '' for analytics, '/v1' for static export. */
  basePath: string;
  ajv: Ajv;
  compiled: Map<string, ValidateFunction>;
}

const FILES = ['analytics.openapi.json', 'static-export.openapi.json'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function loadSpec(file: string): Spec {
  const doc = JSON.parse(readFileSync(new URL(`../../docs/api/${file}`, import.meta.url), 'utf8')) as OpenApiDoc;
  const is31 = doc.openapi.startsWith('3.1');
  // strict: false — the documents carry OpenAPI keywords (example, discriminator…) that are not JSON Schema.
  const ajv = is31 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)) });
  ajv.addFormat('uri', { type: 'string', validate: (s: string) => URL.canParse(s) && /^[a-z][a-z0-9+.-]*:/i.test(s) });
  ajv.addFormat('ulid', /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  const basePath = doc.servers?.[0] ? new URL(doc.servers[0].url).pathname.replace(/\/$/, '') : '';
  return { name: file, doc, basePath, ajv, compiled: new Map() };
}

const SPECS = FILES.map(loadSpec);

/** `/v1/analytics/{projectId}/assistant` matches `/v1/analytics/demo/assistant` (one segment per parameter). */
function templateRegex(template: string): RegExp {
  const parts = template.split(/(\{[^}]+\})/).map((p) => (p.startsWith('{') ? '[^/]+' : p.replace(/[.*+?^$()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

function findOperation(method: string, path: string): { spec: Spec; template: string } {
  const pathname = path.split('?')[0]!;
  for (const spec of SPECS) {
    // A literal template wins over a parameterized one (…/assistant/caller-stats vs …/threads/{id}).
    const templates = Object.keys(spec.doc.paths).sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    for (const template of templates) {
      if (templateRegex(spec.basePath + template).test(pathname) && spec.doc.paths[template]![method]) return { spec, template };
    }
  }
  throw new Error(`no operation ${method.toUpperCase()} ${pathname} in ${FILES.join(' or ')}`);
}

/** Follows a local `$ref` (`#/components/responses/X`) inside the document. */
function deref(doc: OpenApiDoc, node: unknown): unknown {
  let n = node as { $ref?: string } | undefined;
  while (n && typeof n.$ref === 'string' && n.$ref.startsWith('#/')) {
    n = n.$ref.slice(2).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((acc, k) => (acc as Record<string, unknown>)?.[k], doc) as { $ref?: string } | undefined;
  }
  return n;
}

function validatorFor(spec: Spec, template: string, method: string, status: number): ValidateFunction {
  const key = `${method} ${template} ${status}`;
  const hit = spec.compiled.get(key);
  if (hit) return hit;
  const responses = spec.doc.paths[template]![method]!.responses ?? {};
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!declared) {
    throw new Error(`${spec.name}: ${method.toUpperCase()} ${template} declares no ${status} response (declared: ${Object.keys(responses).join(', ')})`);
  }
  const response = deref(spec.doc, declared) as { content?: Record<string, { schema?: unknown }> };
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${spec.name}: ${method.toUpperCase()} ${template} ${status} has no application/json schema`);
  // The schema is compiled inside a root that carries the document's components, so its
  // `#/components/schemas/…` references resolve exactly as in the document.
  const validate = spec.ajv.compile({ components: spec.doc.components, ...(schema as object) });
  spec.compiled.set(key, validate);
  return validate;
}

export interface ResponseCase {
  method: string;
  /** The request path as sent (query string allowed): `/v1/analytics/demo/assistant?limit=1`. */
  path: string;
  status: number;
  /** The parsed JSON body. */
  body: unknown;
}

/**
 * Where `c` breaks the published contract: [] when it conforms. An operation or status the OpenAPI
 * files do not declare is a problem too.
 */
export function openApiProblems(c: ResponseCase): string[] {
  const method = c.method.toLowerCase();
  if (!METHODS.includes(method)) return [`unknown method ${c.method}`];
  let validate: ValidateFunction;
  try {
    const { spec, template } = findOperation(method, c.path);
    validate = validatorFor(spec, template, method, c.status);
  } catch (err) {
    return [(err as Error).message];
  }
  if (validate(c.body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}
