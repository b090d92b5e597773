import { describe, it, expect } from 'vitest';
import { randomIds } from '../../src/adapters/system/random-ids.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

describe('bank references', () => {
  it('are 20 characters of A-Z and 0-9', () => {
    for (let n = 0; n < 1_000; n++) expect(randomIds.bankReference()).toMatch(/^[A-Z0-9]{20}$/);
  });

  it('use every character equally often (a byte taken modulo 36 without skipping 252 to 255 would favour A to D)', () => {
    const references = 36_000; // 720,000 characters: 20,000 of each expected, a standard deviation of about 140
    const counts = new Map<string, number>();
    for (let n = 0; n < references; n++) for (const character of randomIds.bankReference()) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...ALPHABET].sort().join(''));
    // Seven standard deviations either way: uniform characters fall outside about once in 10^11; A to D at 8/256
    // against 7/256 of the bytes would count about 22,500 each.
    for (const [character, count] of counts)
      expect({ character, count }).toEqual({ character, count: expect.toSatisfy((c: number) => Math.abs(c - 20_000) < 1_000) });
  });

  it('and ids are 128 random bits in hex after their kind', () => {
    const ids = Array.from({ length: 1_000 }, () => randomIds.next('payment'));
    for (const id of ids) expect(id).toMatch(/^pay_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
