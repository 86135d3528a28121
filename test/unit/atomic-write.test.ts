// Files scpctl keeps are replaced whole or not at all.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomically } from '../../src/files/atomic-write.js';

const folder = () => mkdtempSync(join(tmpdir(), 'scpctl-atomic-'));

describe('writeFileAtomically', () => {
  it('replaces the file whole, with the mode asked for, and leaves nothing beside it', () => {
    const dir = folder();
    const path = join(dir, 'state.json');
    writeFileSync(path, 'old');
    writeFileAtomically(path, 'new text\n');
    expect(readFileSync(path, 'utf8')).toBe('new text\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeFileAtomically(path, 'again\n', 0o644);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a write that fails leaves the old file as it was and no temporary file', () => {
    const dir = folder();
    const path = join(dir, 'taken');
    mkdirSync(path); // renaming a file over a folder fails
    expect(() => writeFileAtomically(path, 'text')).toThrow(expect.objectContaining({ code: expect.any(String) }));
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(() => writeFileAtomically(join(dir, 'missing', 'x.json'), 'text')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
