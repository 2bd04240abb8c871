// A page landed the way an older docs-etl landed it (body verbatim, every record taken as valid):
// the state a user upgrading from that version has in their landing zone.
import { join } from 'node:path';
import { LandingZone } from '../../src/sync/land/landing-zone.js';
import { keyFingerprint } from '../../src/core/secrets.js';

/** A page as an older docs-etl landed it: the body verbatim, its records all taken as valid. */
export function landOld(key: string, dir: string, pipeline: string, seq: number, body: string, records: number): void {
  const from = new Date(Date.now() - 40 * 60_000);
  const zone = new LandingZone(join(dir, 'landing', 'w'));
  zone.land({
    v: 1, project_id: 'demo', pipeline, organization: keyFingerprint(key), seq, run_id: `01OLDRUN${seq}`, fetched_at: from.toISOString(),
    requests: 1, records, quarantined: 0,
    window: { id: `01OLDWINDOW${pipeline}${seq}`, from: from.toISOString(), to: new Date(from.getTime() + 3_600_000).toISOString(), purpose: 'head' },
    request: { cursor: null, offset: null }, next: { cursor: null, offset: null, complete: true }, window_limit_ms: null,
    invalid: [], x: Array.from({ length: records }, () => null),
  }, body);
}
