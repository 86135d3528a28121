// `config use-context | current-context | get-contexts | delete-context | rename-context`, as kubectl has them:
// a context that does not exist is an error (exit 2, nothing changed), never silently created.
import { existsSync, renameSync } from 'node:fs';
import { HistoryStore, stateDir } from '../../history/store.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_CONTEXT, configPath, readConfig, updateConfig, type ConfigData } from '../../settings/config-file.js';
import { checkContextName } from '../../settings/resolve.js';
import type { CommandContext } from '../context.js';
import { writeListing } from '../../output/writers.js';

/** The contexts there are: every one stored, and `default`, which always exists (it needs no settings). */
export function contextNames(data: ConfigData): string[] {
  return [...new Set([DEFAULT_CONTEXT, ...Object.keys(data.contexts)])].sort();
}

function currentOf(data: ConfigData): string {
  return data.currentContext ?? DEFAULT_CONTEXT;
}

/** Refuses a name that is not a context, listing those there are; returns the store as read. */
function requireContext(ctx: CommandContext, name: string, origin: string): ConfigData {
  checkContextName(name, origin);
  const data = readConfig(configPath(ctx.env));
  const names = contextNames(data);
  if (!names.includes(name)) {
    throw new UsageError(`${origin}: no context named "${name}"; the contexts are ${names.join(', ')}`, {
      hint: `A context is made by storing a setting in it: scpctl --context ${name} login --base-url URL`,
    });
  }
  return data;
}

export async function useContext(ctx: CommandContext, name: string): Promise<void> {
  requireContext(ctx, name, 'use-context');
  await updateConfig((data) => {
    data.currentContext = name;
  }, ctx.env);
  ctx.term.success(`the default context is now ${name}`);
}

export async function currentContext(ctx: CommandContext): Promise<void> {
  ctx.term.out(ctx.contextName() + '\n');
}

export async function deleteContext(ctx: CommandContext, name: string): Promise<void> {
  const before = requireContext(ctx, name, 'delete-context');
  const wasCurrent = currentOf(before) === name;
  const { forgetStoredToken } = await import('../login/token-store.js');
  const stays = await forgetStoredToken(ctx.env, name);
  await updateConfig((data) => {
    delete data.contexts[name];
    if (data.currentContext === name) delete data.currentContext;
  }, ctx.env);
  ctx.term.success(`context ${name} deleted`);
  if (stays) ctx.term.warn(stays);
  if (wasCurrent && name !== DEFAULT_CONTEXT) ctx.term.warn(`${name} was the default context; the default is now ${DEFAULT_CONTEXT}`);
}

export async function renameContext(ctx: CommandContext, from: string, to: string): Promise<void> {
  checkContextName(to, 'rename-context');
  const before = requireContext(ctx, from, 'rename-context');
  if (contextNames(before).includes(to)) {
    throw new UsageError(`rename-context: a context named "${to}" exists already`, { hint: `Delete it first: scpctl config delete-context ${to}` });
  }
  // A token in the OS store is kept under the context's name: it moves with it (login/token-store.ts).
  const { renameStoredToken } = await import('../login/token-store.js');
  await renameStoredToken(ctx.env, from, to, async () => {
    await updateConfig((data) => {
      data.contexts[to] = data.contexts[from] ?? {};
      delete data.contexts[from];
      if (currentOf(data) === from) data.currentContext = to;
    }, ctx.env);
  });
  // Its kept list versions go with it (buckets history, restore).
  const kept = HistoryStore.contextFolder(stateDir(ctx.env), from);
  try {
    if (existsSync(kept)) {
      renameSync(kept, HistoryStore.contextFolder(stateDir(ctx.env), to));
      await HistoryStore.renameContext(stateDir(ctx.env), from, to);
    }
  } catch (error) {
    ctx.term.warn(`the kept list versions of ${from} stay in ${kept} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  ctx.term.success(`context ${from} renamed to ${to}`);
}

export async function getContexts(ctx: CommandContext): Promise<void> {
  const data = readConfig(configPath(ctx.env));
  const current = currentOf(data);
  const rows = [...new Set([current, ...contextNames(data)])].sort().map((name) => {
    const values = data.contexts[name] ?? {};
    return { name, current: name === current, baseUrl: values.baseUrl ?? '', token: values.tokenStore === 'keyring' ? 'keyring' : values.token ? 'stored' : values.tokenCommand ? 'command' : 'none' };
  });
  const cells = rows.map((r) => [r.current ? '*' : '', r.name, r.baseUrl || '-', r.token]);
  await writeListing(ctx.term, ctx.outputFormat('listing'), { head: ['CURRENT', 'NAME', 'BASE URL', 'TOKEN'], rows: cells, value: rows });
}
