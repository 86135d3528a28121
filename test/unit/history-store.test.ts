// The history store: where it lives, one file per version, the newest N kept, names back exactly.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryStore, safeSegment, stateDir } from '../../src/history/store.js';

const dirs: string[] = [];
const temp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'scpctl-history-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('stateDir', () => {
  it('SCPCTL_STATE_DIR, then XDG_STATE_HOME/scpctl, then ~/.local/state/scpctl', () => {
    expect(stateDir({ SCPCTL_STATE_DIR: '/s', XDG_STATE_HOME: '/x', HOME: '/h' })).toBe('/s');
    expect(stateDir({ XDG_STATE_HOME: '/x', HOME: '/h' })).toBe('/x/scpctl');
    expect(stateDir({ HOME: '/h' })).toBe('/h/.local/state/scpctl');
    expect(stateDir({ SCPCTL_STATE_DIR: ' ', XDG_STATE_HOME: '', HOME: '/h' })).toBe('/h/.local/state/scpctl');
  });
});

describe('safeSegment', () => {
  it('keeps any name inside its folder, and apart from every other name', () => {
    for (const name of ['..', '.', 'a/b', 'a\\b', 'x\u0000y', '%2E']) {
      const segment = safeSegment(name);
      expect(segment).not.toMatch(/[/\\\u0000]/);
      expect(segment).not.toMatch(/^\.+$/);
    }
    expect(safeSegment('finance')).toBe('finance');
    expect(safeSegment('..')).not.toBe(safeSegment('%2E%2E'));
    const long = safeSegment('p'.repeat(1000));
    expect(long.length).toBeLessThan(130);
    expect(long).not.toBe(safeSegment(`${'p'.repeat(999)}q`));
  });
});

describe('HistoryStore', () => {
  it('records versions and lists them newest first; reads names back exactly', async () => {
    const store = new HistoryStore(temp(), 'default', 50);
    const names = ['alpha', 'a,b', 'line\nbreak', 'Ünï', '\ud800lone'];
    const first = await store.record('finance', 'replace', names, new Date('2026-01-01T00:00:00Z'));
    const second = await store.record('finance', 'sync', ['x'], new Date('2026-01-02T00:00:00Z'));
    expect(await store.list('finance')).toEqual([
      { id: second!.id, time: '2026-01-02T00:00:00.000Z', operation: 'sync', count: 1 },
      { id: first!.id, time: '2026-01-01T00:00:00.000Z', operation: 'replace', count: 5 },
    ]);
    expect((await store.read('finance', first!.id))!.names).toEqual(names);
    expect(await store.list('legal')).toEqual([]);
  });

  it('keeps the newest `keep` versions; 0 keeps none', async () => {
    const root = temp();
    const store = new HistoryStore(root, 'default', 3);
    for (let day = 1; day <= 5; day++) await store.record('finance', 'apply', [`n-${day}`], new Date(Date.UTC(2026, 0, day)));
    const listed = await store.list('finance');
    expect(listed.map((e) => e.time.slice(0, 10))).toEqual(['2026-01-05', '2026-01-04', '2026-01-03']);
    expect(readdirSync(store.folder('finance'))).toHaveLength(3);
    const none = new HistoryStore(root, 'other', 0);
    expect(await none.record('finance', 'apply', ['x'], new Date())).toBeUndefined();
    expect(await none.list('finance')).toEqual([]);
  });

  it('keeps contexts apart; an unknown or malformed ID reads as nothing', async () => {
    const root = temp();
    const a = new HistoryStore(root, 'tenant-a', 50);
    const b = new HistoryStore(root, 'tenant-b', 50);
    const entry = await a.record('finance', 'replace', ['x'], new Date());
    expect(await b.list('finance')).toEqual([]);
    expect(await b.read('finance', entry!.id)).toBeUndefined();
    expect(await a.read('finance', '../../etc/passwd')).toBeUndefined();
    expect(await a.read('finance', 'zzzzzzzzzzzz')).toBeUndefined();
  });
});

describe('HistoryStore: renaming a context', () => {
  it('rewrites the context its entries name, so that they restore under the new name only', async () => {
    const root = temp();
    const entry = await new HistoryStore(root, 'old-name', 50).record('finance', 'replace', ['x-y-z'], new Date());
    const { renameSync } = await import('node:fs');
    renameSync(HistoryStore.contextFolder(root, 'old-name'), HistoryStore.contextFolder(root, 'new-name'));
    await HistoryStore.renameContext(root, 'old-name', 'new-name');
    expect((await new HistoryStore(root, 'new-name', 50).read('finance', entry!.id))!.names).toEqual(['x-y-z']);
  });
});

describe('a kept name never holds a token', () => {
  const token = 'tok_S3cr3t+/=Zq9XyW7vU5tR';
  it.each([
    ['names', (names: string[]) => names],
    ["the view's JSON text", (names: string[]) => ({ json: JSON.stringify(names), count: names.length })],
  ])('kept from %s: masked in the file, the count unchanged, other names byte for byte', async (_, shape) => {
    const root = temp();
    const store = new HistoryStore(root, 'default', 5, 'https://h', [token]);
    const names = ['alpha-data', `x${token}y`, `p${encodeURIComponent(token)}`, 'Ünïcode-Bucket'];
    const entry = await store.record('finance', 'replace', shape(names), new Date('2026-01-01T00:00:00Z'));
    const version = await store.read('finance', entry!.id);
    expect(version!.names).toEqual(['alpha-data', 'x***y', 'p***', 'Ünïcode-Bucket']);
    expect(entry!.count).toBe(4);
  });
});
