// A saved plan file as `apply --plan` reads it: a regular file within its size, its structure found in its
// lines (core/plan-lines.ts), its head checked and bound to this run (context and tenant), then each profile
// checked, a group of names at a time; what is held for the run is each profile's outline and where its
// groups lie. A step that needs a profile's names reads them again, a group at a time (each found unchanged
// by its digest): a plan just under 64 MiB never has more than a chunk of its bytes and a group of its names
// in memory (contract section 13). The seal (made with the token, tenant.ts) is fed each name as its group is
// checked, in the order of planHeadSealParts and profileSealParts: an edited plan is refused before anything
// is sent, and the digests hold the names sent to those sealed.
import { createHash } from 'node:crypto';
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { NotPlainFile, openPlainFile } from '../../files/plain-file.js';
import { UsageError } from '../../errors.js';
import type { NameGroups } from '../../core/plan.js';
import { quoteName } from '../../core/names.js';
import { PlanLines, type ByteRange, type PlanEntry } from '../../core/plan-lines.js';
import { REPLAN, checkPlanHead, checkPlanNames, checkSavedProfile, notAPlan, planHeadSealParts } from '../../core/saved-plan.js';
import type { SavedPlanHead } from '../../core/saved-plan.js';
import type { SealStream, TenantIdentity } from '../../core/tenant.js';
import { refuseSecretNames } from '../../core/secret-names.js';

/** A plan is at most this large: 8 profiles of 8 MiB in each direction, with room; anything more is not one. */
export const MAX_PLAN_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/** A group's names (values not yet checked); a SyntaxError if the bytes are not JSON. */
function parseGroup(bytes: Buffer): unknown[] {
  return JSON.parse(`[${bytes.toString('utf8')}]`) as unknown[];
}

/** What apply keeps of a profile of a saved plan between its steps: its names stay in the file. */
export interface PlannedProfile {
  profile: string;
  fingerprint: string;
  added: number;
  deleted: number;
  /** Its lists' sizes on the wire (joined by commas), checked against the limit before it is sent. */
  wireBytes: { add: number; delete: number };
  groups: { add: CheckedGroup[]; delete: CheckedGroup[] };
  /** How many bytes of the file it takes: about what holding its names costs. */
  entryBytes: number;
}

/** A group of names as checked: a digest of its bytes, so that reading it again is known to read the same. */
interface CheckedGroup extends ByteRange {
  digest: string;
}

export class SavedPlanFile {
  head!: SavedPlanHead;
  readonly profiles: PlannedProfile[] = [];
  /** A group is read into this, parsed, and left: nothing keeps it, so one serves every read. */
  private scratch = Buffer.allocUnsafe(CHUNK_BYTES);

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /** Profile `index`'s names, read again from the file a group at a time when iterated (exit 2 if the file changed). */
  names(index: number): NameGroups {
    const { add, delete: del } = this.profiles[index]!.groups;
    return { add: this.parsed(add), delete: this.parsed(del) };
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** Bytes [start, end) of the file, read now (synchronously: a group, then parsed before anything else runs). */
  read(start: number, end: number): Buffer {
    if (this.scratch.length < end - start) this.scratch = Buffer.allocUnsafe(end - start);
    const bytes = this.scratch.subarray(0, end - start);
    let done = 0;
    while (done < bytes.length) {
      const read = readSync(this.handle.fd, bytes, done, bytes.length - done, start + done);
      if (read === 0) break;
      done += read;
    }
    return bytes.subarray(0, done);
  }

  private parsed(groups: readonly CheckedGroup[]): Iterable<string[]> {
    return {
      [Symbol.iterator]: function* (this: SavedPlanFile) {
        for (const { start, end, digest } of groups) {
          const bytes = this.read(start, end);
          if (sha256(bytes) !== digest) {
            // Before anything is sent this stops the run; while profiles are sent it fails this one alone.
            throw new UsageError(`${this.path}: the plan file changed while it was in use (its names differ from those checked); this profile was not sent`);
          }
          yield parseGroup(bytes) as string[];
        }
      }.bind(this),
    };
  }
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Where this run applies a plan: a plan applies only where it was made. */
export interface PlanRun {
  context: string;
  /** Every token this run knows: no name of the plan may hold one (an edited plan could send one as a bucket). */
  tokens: readonly string[];
  identity(): Promise<TenantIdentity>;
}

/**
 * A plan file, refused at once unless it is a regular file within the size: a FIFO handed over as a plan
 * would otherwise hold the run (and its signals) open, and a device would be read without end. Opened
 * without blocking and checked on the descriptor, so what is checked is what is read.
 */
export async function openSavedPlan(path: string, run: PlanRun): Promise<SavedPlanFile> {
  const cannot = (why: string): UsageError => new UsageError(`cannot read the plan ${path}: ${why}; nothing was sent`);
  let opened;
  try {
    opened = await openPlainFile(path);
  } catch (error) {
    throw cannot(error instanceof NotPlainFile ? `it is ${error.kind}, not a regular file` : ((error as NodeJS.ErrnoException).code ?? 'read error'));
  }
  if (opened === undefined) throw cannot('no such file');
  const { handle, stats } = opened;
  try {
    if (!stats.isFile()) throw cannot('not a regular file');
    if (stats.size > MAX_PLAN_BYTES) throw cannot(`${stats.size.toLocaleString('en-US')} bytes, more than a plan holds (64 MiB)`);
    const file = new SavedPlanFile(path, handle);
    const lines = new PlanLines(path);
    for (let at = 0; at < stats.size; at += CHUNK_BYTES) {
      // Between chunks the event loop turns: a signal is answered while a large plan is read.
      if (at > 0) await new Promise((resume) => setImmediate(resume));
      const bytes = file.read(at, Math.min(at + CHUNK_BYTES, stats.size));
      if (bytes.length === 0) throw new SyntaxError('the file ended');
      lines.feed(bytes);
    }
    file.head = checkPlanHead(JSON.parse(lines.finish()) as unknown, path);
    const seal = await bind(file, run);
    const seen = new Set<string>();
    for (const [i, entry] of lines.entries.entries()) await checkProfile(file, entry, i, { seen, tokens: run.tokens, seal });
    // The tenant key can be copied from any plan of this tenant; the seal only made with the token.
    if (!seal.verify(file.head.seal)) {
      throw new UsageError(`${path}: the plan was changed after it was saved (its seal, made with the token, does not match its content); nothing was sent`, REPLAN);
    }
    return file;
  } catch (error) {
    await handle.close();
    throw error instanceof SyntaxError ? notAPlan(path, 'not valid JSON') : error;
  }
}

/**
 * The plan's binding checked before any of its names is read: the same context, base URL and token
 * (tenant.ts: one scrypt with the plan's salt). Behind one gateway URL two tenants differ only by their
 * token; a rotated token counts as another tenant. The seal that scrypt keys, fed the head.
 */
async function bind(file: SavedPlanFile, run: PlanRun): Promise<SealStream> {
  const { path, head } = file;
  const identity = await run.identity();
  if (head.context !== run.context || head.tenant.baseUrl !== identity.baseUrl) {
    const [made, here] = [head.context, run.context].map((context) => quoteName(context, run.tokens));
    throw new UsageError(`${path}: the plan was made for context ${made} at ${head.tenant.baseUrl}, and this run is context ${here} at ${identity.baseUrl}; nothing was sent`, REPLAN);
  }
  const sealer = await identity.sealer(head.tenant);
  if (!sealer) {
    throw new UsageError(`${path}: the plan was made with another token for ${identity.baseUrl} (another tenant, or a rotated token); nothing was sent`, REPLAN);
  }
  const seal = sealer.begin();
  for (const part of planHeadSealParts(head)) seal.add(part);
  return seal;
}

/** What checking each profile shares: the profiles seen, the tokens this run knows, the seal fed. */
type ProfileChecks = { seen: Set<string>; tokens: readonly string[]; seal: SealStream };

/** Profile `i` checked, its names a group at a time (each fed to the seal as it is checked): its outline kept. */
async function checkProfile(file: SavedPlanFile, entry: PlanEntry, i: number, { seen, tokens, seal }: ProfileChecks): Promise<void> {
  const { groups } = entry;
  const { profile, fingerprint } = checkSavedProfile(JSON.parse(entry.fields), i, file.path, seen);
  for (const part of [profile, fingerprint]) seal.add(part);
  const { add: added, delete: deleted } = entry.counts;
  const wireBytes = { add: 0, delete: 0 };
  const entryBytes = entry.end - entry.start;
  const planned: PlannedProfile = { profile, fingerprint, added, deleted, wireBytes, entryBytes, groups: { add: [], delete: [] } };
  // Lines as one list of the added, then the deleted names would number them, so a token's line is the same.
  let line = 1;
  for (const key of ['add', 'delete'] as const) {
    seal.add(`${key} ${entry.counts[key]}`);
    let count = 0;
    for (const group of groups[key]) {
      const bytes = file.read(group.start, group.end);
      planned.groups[key].push({ ...group, digest: sha256(bytes) });
      const names = checkPlanNames(parseGroup(bytes), key, { i, head: file.head, path: file.path, secrets: tokens });
      refuseSecretNames([{ origin: { kind: 'file', path: `${file.path} (${profile})` }, content: names.join('\n'), line }], tokens);
      for (const name of names) seal.add(name);
      line += names.length;
      count += names.length;
      for (const name of names) planned.wireBytes[key] += Buffer.byteLength(name, 'utf8');
      // A group at a time, the event loop turns: a signal is answered while a large plan is checked.
      await new Promise((resume) => setImmediate(resume));
    }
    // The seal counted the lines of names; a group parsed to more or fewer names is no plan.
    if (count !== entry.counts[key]) throw notAPlan(file.path, `profiles[${i}]: not valid JSON`);
    // The commas between the names.
    planned.wireBytes[key] += Math.max(count - 1, 0);
  }
  file.profiles.push(planned);
}
