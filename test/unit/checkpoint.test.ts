// report --checkpoint: the file's shape and the window it gives (contract section 7).
import { describe, expect, it } from 'vitest';
import {
  checkpointWindow,
  parseCheckpoint,
  reportIdentity,
  serializeCheckpoint,
  type Checkpoint,
} from '../../src/commands/report/checkpoint.js';
import { UsageError } from '../../src/errors.js';
import type { Tenant } from '../../src/core/tenant.js';
import { caught } from './caught.js';

const NOW = 1_714_564_800;
const IDENTITY: Array<[string, string]> = [['type', 'alert']];
const BASE = 'https://tenant.example.com';
const TENANT: Tenant = { baseUrl: BASE, key: `scrypt:16384:8:1:${'ab'.repeat(16)}:${'cd'.repeat(32)}` };
/** This run's tenant as checkpointWindow is told it (the command checks the key: tenant.ts). */
const OWN = { baseUrl: BASE, ownTenant: true };
const saved: Checkpoint = { end: NOW - 3600, start: NOW - 7200, records: 12, completedAt: '2024-05-01T11:00:00.000Z', filters: IDENTITY, tenant: TENANT };

describe('checkpointWindow', () => {
  it('a first run without --start covers the last 24 hours up to now − lag', () => {
    const w = checkpointWindow({ checkpoint: undefined, path: 'cp.json', identity: IDENTITY, ...OWN, start: undefined, now: NOW, lag: 300 });
    expect([w.start, w.end]).toEqual([NOW - 86_400, NOW - 300]);
    expect(w.note).toContain('first run');
  });

  it('a first run with --start starts there', () => {
    const w = checkpointWindow({ checkpoint: undefined, path: 'cp.json', identity: IDENTITY, ...OWN, start: NOW - 100, now: NOW, lag: 0 });
    expect([w.start, w.end]).toEqual([NOW - 100, NOW]);
  });

  it('a later run starts exactly where the last complete run ended: no gap, no overlap ((start, end] windows)', () => {
    const w = checkpointWindow({ checkpoint: saved, path: 'cp.json', identity: IDENTITY, ...OWN, start: NOW - 999_999, now: NOW, lag: 300 });
    expect([w.start, w.end]).toEqual([saved.end, NOW - 300]);
    expect(w.note).toContain('--start is ignored');
  });

  it('refuses a checkpoint written for another report', () => {
    const error = caught(() =>
      checkpointWindow({ checkpoint: saved, path: 'cp.json', identity: [['type', 'network']], ...OWN, start: undefined, now: NOW, lag: 300 }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('belongs to another report (type=alert), not this one (type=network)');
  });

  it("refuses another tenant's checkpoint: another BASE, or the same BASE with another token", () => {
    for (const tenant of [{ baseUrl: 'https://other.example.com', ownTenant: false }, { baseUrl: BASE, ownTenant: false }]) {
      const error = caught(() => checkpointWindow({ checkpoint: saved, path: 'cp.json', identity: IDENTITY, ...tenant, start: undefined, now: NOW, lag: 300 }));
      expect(error.message).toMatch(/^--checkpoint cp\.json belongs to another tenant/);
    }
  });

  it('refuses an end in the future beyond the clock skew, takes one within it', () => {
    const ahead = (seconds: number) => checkpointWindow({ checkpoint: { ...saved, end: NOW + seconds }, path: 'cp.json', identity: IDENTITY, ...OWN, start: undefined, now: NOW, lag: 0 });
    expect(caught(() => ahead(301)).message).toMatch(/its end \(.*\) lies in the future; every run would fetch nothing/);
    expect(ahead(300).start).toBe(NOW + 300);
  });
});

describe('the checkpoint file', () => {
  it('round-trips', () => {
    expect(parseCheckpoint(serializeCheckpoint(saved), 'cp.json')).toEqual(saved);
  });

  it('no file yet is a first run; an empty one is refused, never taken for a first run', () => {
    expect(parseCheckpoint(undefined, 'cp.json')).toBeUndefined();
    expect(caught(() => parseCheckpoint('\n', 'cp.json')).message).toBe('--checkpoint cp.json: the file is empty, not a checkpoint');
  });

  it('a checkpoint of the first version (no tenant) is refused, with the --start that continues it', () => {
    const old = JSON.stringify({ kind: 'scpctl-report-checkpoint', version: 1, end: 1000, start: 1, records: 0, completedAt: '', filters: [] });
    const error = caught(() => parseCheckpoint(old, 'cp.json'));
    expect(error.message).toBe('--checkpoint cp.json: written by an older scpctl, it names no tenant');
    expect((error as UsageError).hint).toContain('--start 1000');
  });

  it('a checkpoint of the second version (an HMAC of the token as its tenant key) is refused naming the file, with the --start that continues it', () => {
    const old = JSON.stringify({ kind: 'scpctl-report-checkpoint', version: 2, end: 1000, start: 1, records: 0, completedAt: '', filters: [], tenant: { baseUrl: BASE, key: `hmac-sha256:${'0'.repeat(32)}` } });
    const error = caught(() => parseCheckpoint(old, 'cp.json'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toBe('--checkpoint cp.json: written by an older scpctl, its tenant key is a fast hash of the token, which this scpctl no longer trusts');
    expect((error as UsageError).hint).toContain('--start 1000');
  });

  it.each(['{', '[]', '{"kind":"other"}', '{"kind":"scpctl-report-checkpoint","end":"x","start":1,"filters":[]}',
    '{"kind":"scpctl-report-checkpoint","end":5,"start":1,"filters":[["a"]]}'])('refuses %j with exit 2', (text) => {
    const error = caught(() => parseCheckpoint(text, 'cp.json'));
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/^--checkpoint cp\.json: /);
  });

  it('the identity of a report leaves the window out', () => {
    expect(reportIdentity([['type', 'alert'], ['timeperiod', '3600'], ['starttime', '1'], ['endtime', '2'], ['query', 'a eq b']])).toEqual([
      ['type', 'alert'],
      ['query', 'a eq b'],
    ]);
  });
});
