// Neighbours stay apart, no catch-all (issue 37 item 3). The cases are real: on the labelled payments
// set, without the cohesion split (split-topics.ts), the first pass and the merges chain
// idempotency keys, API key rotation and restricted keys into one topic ("key"); webhook retries,
// signatures and event order into one ("webhook"); "rate limit" gathers "fx rate", "list endpoint
// limit" and "key with limited scope". With it, each is its own topic.
import { describe, expect, it } from 'vitest';
import { clusterQuestions } from '../../src/outputs/topics/cluster-questions.js';
import { loadSet } from '../bench/topics-quality.js';

const set = loadSet('payments');
const clustering = clusterQuestions(set.map((q, i) => ({ text: q.question, count: 1 + (i % 3) })));
const topicOf = (q: string) => {
  const i = set.findIndex((x) => x.question === q);
  expect(i, q).toBeGreaterThanOrEqual(0);
  return clustering.topicOf[i]!;
};

describe('topic cohesion', () => {
  it('splits the "key" catch-all: idempotency keys, key rotation and restricted keys are three topics', () => {
    const idem = topicOf('how long is an idempotency key stored');
    const rotation = topicOf('How do I rotate my secret API key without downtime?');
    const restricted = topicOf('restricted key permissions');
    expect(new Set([idem, rotation, restricted]).size).toBe(3);
    expect(topicOf('Idempotency-Key header format uuid?')).toBe(idem);
    expect(topicOf('roll secret key')).toBe(rotation);
  });

  it('keeps neighbours that share a product word apart: webhook retries, signatures, event order', () => {
    const retries = topicOf('webhook retry schedule');
    const signature = topicOf('signature mismatch on webhooks behind nginx');
    const order = topicOf('are webhook events guaranteed to be delivered in order?');
    expect(new Set([retries, signature, order]).size).toBe(3);
    expect(topicOf('retry policy for failed webhook deliveries')).toBe(retries);
  });

  it('sends the strangers out of the rate-limit topic', () => {
    const rateLimit = topicOf('What are the API rate limits?');
    expect(topicOf('how to raise my rate limit')).toBe(rateLimit);
    for (const stranger of ['fx rate on settlement how calculated', 'iterate over all customers list endpoint limit', 'key with limited scope for our analytics service']) {
      expect(topicOf(stranger), stranger).not.toBe(rateLimit);
    }
  });

  it('leaves a one-off question alone rather than in the nearest topic', () => {
    const oneOff = topicOf('How do I set up two factor auth for dashboard users');
    expect(clustering.topics[oneOff]!.members).toHaveLength(1);
  });
});
