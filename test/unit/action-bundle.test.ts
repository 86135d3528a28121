// The GitHub Action runs its committed bundle (action/dist/index.cjs) from a checkout with no `npm ci`: it
// must be what `npm run build:action` makes of the source today, byte for byte, and need no package from
// node_modules. esbuild builds it in memory in about a second.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
// @ts-expect-error: a build script, plain JavaScript
import { ACTION_BUNDLE, actionBundle } from '../../scripts/build-action.mjs';

describe('action/dist/index.cjs', () => {
  it('is the bundle a fresh build makes: run `npm run build:action` and commit it when this fails', async () => {
    const fresh: string = await actionBundle();
    expect(readFileSync(ACTION_BUNDLE, 'utf8') === fresh, 'action/dist/index.cjs is not current: npm run build:action').toBe(true);
  });

  it('requires nothing but Node built-ins: every package is in it', () => {
    const text = readFileSync(ACTION_BUNDLE, 'utf8');
    const required = new Set([...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!));
    expect([...required].filter((name) => !name.startsWith('node:') && !builtinModules.includes(name))).toEqual([]);
  });
});
