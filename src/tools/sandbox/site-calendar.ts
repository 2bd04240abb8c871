// The rhythm of a docs site's activity, shared by feedback, searches and views: UTC days (day
// index = days since 1970-01-01), quieter weekends, and in each aligned 14-day block one "release
// day" (a Monday to Thursday chosen by seed) followed by a busy "follow-up" day. Pure functions of
// (seed, project, day), so every endpoint agrees on which days are busy.
import { hashSeed } from './prng.js';

export const HOUR = 3_600_000;
export const DAY = 86_400_000;
/** Release days: one in each aligned block of this many days. */
export const RELEASE_BLOCK_DAYS = 14;

export type DayKind = 'ordinary' | 'release' | 'follow-up';

/** How much busier a stream is on release and follow-up days than on an ordinary weekday. */
export interface Boosts {
  release: number;
  followUp: number;
}

/** Day index of an instant (UTC). */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY);
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** The release day of the 14-day block holding `day`: a Monday to Thursday chosen by seed. */
export function releaseDay(seed: number, projectId: string, day: number): number {
  const block = Math.floor(day / RELEASE_BLOCK_DAYS);
  const first = block * RELEASE_BLOCK_DAYS;
  const candidates: number[] = [];
  for (let d = first; d < first + RELEASE_BLOCK_DAYS; d++) if (weekday(d) >= 1 && weekday(d) <= 4) candidates.push(d);
  return candidates[hashSeed(seed, projectId, 'release', block) % candidates.length]!;
}

export function dayKind(seed: number, projectId: string, day: number): DayKind {
  const release = releaseDay(seed, projectId, day);
  return day === release ? 'release' : day === release + 1 ? 'follow-up' : 'ordinary';
}

/** A day's activity relative to an ordinary weekday: weekends 0.55, times the stream's boost. */
export function dayFactor(seed: number, projectId: string, day: number, boosts: Boosts): number {
  const w = weekday(day);
  const kind = dayKind(seed, projectId, day);
  const boost = kind === 'release' ? boosts.release : kind === 'follow-up' ? boosts.followUp : 1;
  return (w === 0 || w === 6 ? 0.55 : 1) * boost;
}
