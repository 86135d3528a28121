// report --checkpoint: the file's shape and the window it gives (contract section 7).
import { describe, expect, it } from 'vitest';
import {
  checkpointWindow,
  parseCheckpoint,
  reportIdentity,
  serializeCheckpoint,
  type Checkpoint,
} from '../../src/core/checkpoint.js';
import { UsageError } from '../../src/errors.js';
import { caught } from './caught.js';

const NOW = 1_714_564_800;
const IDENTITY: Array<[string, string]> = [['type', 'alert']];
const saved: Checkpoint = { end: NOW - 3600, start: NOW - 7200, records: 12, completedAt: '2024-05-01T11:00:00.000Z', filters: IDENTITY };

describe('checkpointWindow', () => {
  it('a first run without --start covers the last 24 hours up to now − lag', () => {
    const w = checkpointWindow({ checkpoint: undefined, path: 'cp.json', identity: IDENTITY, start: undefined, now: NOW, lag: 300 });
    expect([w.start, w.end]).toEqual([NOW - 86_400, NOW - 300]);
    expect(w.note).toContain('first run');
  });

  it('a first run with --start starts there', () => {
    const w = checkpointWindow({ checkpoint: undefined, path: 'cp.json', identity: IDENTITY, start: NOW - 100, now: NOW, lag: 0 });
    expect([w.start, w.end]).toEqual([NOW - 100, NOW]);
  });

  it('a later run starts exactly where the last complete run ended: no gap, no overlap ((start, end] windows)', () => {
    const w = checkpointWindow({ checkpoint: saved, path: 'cp.json', identity: IDENTITY, start: NOW - 999_999, now: NOW, lag: 300 });
    expect([w.start, w.end]).toEqual([saved.end, NOW - 300]);
    expect(w.note).toContain('--start is ignored');
  });

  it('refuses a checkpoint written for another report', () => {
    const error = caught(() =>
      checkpointWindow({ checkpoint: saved, path: 'cp.json', identity: [['type', 'network']], start: undefined, now: NOW, lag: 300 }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toContain('belongs to another report (type=alert), not this one (type=network)');
  });
});

describe('the checkpoint file', () => {
  it('round-trips', () => {
    expect(parseCheckpoint(serializeCheckpoint(saved), 'cp.json')).toEqual(saved);
  });

  it('no file yet, or an empty one, is a first run', () => {
    expect(parseCheckpoint(undefined, 'cp.json')).toBeUndefined();
    expect(parseCheckpoint('\n', 'cp.json')).toBeUndefined();
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
