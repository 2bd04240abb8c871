// A small strict parser of the Prometheus text exposition format (0.0.4): every line a HELP, a TYPE
// or a sample; every sample of a family declared by TYPE (histograms: _bucket, _sum, _count);
// label values quoted with \\, \" and \n escapes; values floats, NaN or ±Inf. Throws on anything else.
export interface Sample { name: string; labels: Record<string, string>; value: number }
export interface Exposition { types: Map<string, string>; samples: Sample[] }

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export function parsePromText(text: string): Exposition {
  if (!text.endsWith('\n')) throw new Error('exposition does not end with a newline');
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [i, line] of text.slice(0, -1).split('\n').entries()) {
    const at = `line ${i + 1}: ${line}`;
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      if (!NAME.test(line.slice(7).split(' ')[0]!)) throw new Error(`bad HELP: ${at}`);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name, type, extra] = line.slice(7).split(' ');
      if (!NAME.test(name ?? '') || !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type ?? '') || extra !== undefined) throw new Error(`bad TYPE: ${at}`);
      if (types.has(name!)) throw new Error(`TYPE twice: ${at}`);
      types.set(name!, type!);
      continue;
    }
    if (line.startsWith('#')) throw new Error(`unexpected comment: ${at}`);
    samples.push(parseSample(line, at, types));
  }
  return { types, samples };
}

function parseSample(line: string, at: string, types: Map<string, string>): Sample {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
  if (!m) throw new Error(`bad sample: ${at}`);
  const name = m[1]!;
  const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
  if (!types.has(family) || (family !== name && types.get(family) !== 'histogram' && types.get(family) !== 'summary')) throw new Error(`sample of an undeclared family: ${at}`);
  const labels: Record<string, string> = {};
  let rest = m[3] ?? '';
  while (rest.length) {
    const l = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest);
    if (!l) throw new Error(`bad labels: ${at}`);
    if (l[1]! in labels) throw new Error(`label twice: ${at}`);
    labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(l[0].length);
  }
  const v = m[4]!;
  const value = v === '+Inf' ? Infinity : v === '-Inf' ? -Infinity : v === 'NaN' ? NaN : Number(v);
  if (!/^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+|Inf|NaN)$/.test(v) || (Number.isNaN(value) && v !== 'NaN')) throw new Error(`bad value: ${at}`);
  return { name, labels, value };
}

/** The value of the one sample of `name` whose labels include `labels` (throws when none or several). */
export function sampleValue(e: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}
