// The action's plan comment (action/src/plan-comment.ts): its hidden line found again only for its manifest,
// pull request and tenant, its seal made from the token; a plan cut to fit a comment stays Markdown.
import { describe, expect, it } from 'vitest';
import { MAX_PLAN_CHARS, cut, markerOf, planCommentBody, reviewedIn, tenantIdentity } from '../../action/src/plan-comment.js';
import { everyName, tally } from '../../action/src/every-name.js';

const TOKEN = 'tok_S3cr3t+/=Zq9XyW7vU5tR';
const identity = tenantIdentity('https://scp.example/', TOKEN);
const binding = { repository: 'acme/allowlists', pull: 7, manifest: 'scpctl.yaml' };
const reviewed = { digest: `sha256:${'a'.repeat(64)}`, head: 'b'.repeat(40) };

describe('the plan comment', () => {
  it('is read back for its binding alone, and never holds the token', async () => {
    const body = await planCommentBody(identity, binding, reviewed, '### scpctl plan\n', (s) => s);
    expect(body.startsWith(markerOf('plan', 'scpctl.yaml'))).toBe(true);
    expect(body).not.toContain(TOKEN);
    expect(await reviewedIn(body, identity, binding)).toEqual(reviewed);
    expect(await reviewedIn(body, identity, { ...binding, pull: 8 })).toBeUndefined();
    expect(await reviewedIn(body, identity, { ...binding, manifest: 'other.yaml' })).toBeUndefined();
    expect(await reviewedIn(body, tenantIdentity('https://scp.example/', 'tok_Another0123456789'), binding)).toBeUndefined();
    expect(await reviewedIn(body, tenantIdentity('https://other.example/', TOKEN), binding)).toBeUndefined();
    expect(await reviewedIn(body.replace(reviewed.head, 'c'.repeat(40)), identity, binding)).toBeUndefined();
  });

  it('is no reviewed plan once the plan it shows is edited, its sealed first line kept', async () => {
    // Someone with write access can edit the bot's comment: the people who review read the plan below the
    // hidden line, so that plan is sealed too, not the line alone.
    const body = await planCommentBody(identity, binding, reviewed, '### scpctl plan\n\n```diff\n- legal-hold\n```\n', (s) => s);
    expect(await reviewedIn(body, identity, binding)).toEqual(reviewed);
    expect(await reviewedIn(body.replace('- legal-hold\n', ''), identity, binding)).toBeUndefined();
    expect(await reviewedIn(body.replace('- legal-hold', '+ legal-hold'), identity, binding)).toBeUndefined();
    expect(await reviewedIn(`${body}\nLooks good to me.`, identity, binding)).toBeUndefined();
    // Line ends GitHub's web editor may write are the same text.
    expect(await reviewedIn(body.replace(/\n/g, '\r\n'), identity, binding)).toEqual(reviewed);
  });

  it('names its manifest so that no path can end the hidden line', () => {
    expect(markerOf('plan', 'x --> <b>y</b>.yaml')).toBe('<!-- scpctl-plan manifest=x%20--%3E%20%3Cb%3Ey%3C%2Fb%3E.yaml ');
  });

  it('cuts a long plan at a line, closing an open code block', () => {
    const long = `### plan\n\n<details><summary>p</summary>\n\n\`\`\`diff\n${'+ a-bucket-name\n'.repeat(10_000)}\`\`\`\n</details>\n`;
    const kept = cut(long);
    expect(kept.length).toBeLessThan(MAX_PLAN_CHARS + 200);
    expect((kept.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect(kept).toContain('The plan is cut here');
    expect(cut('short\n')).toBe('short\n');
  });

  it('cuts a plan with no line break before the limit at the limit (the job summary shrinks it until it fits)', () => {
    const oneLine = `${'x'.repeat(5_000)}\n`;
    for (const max of [4_000, 100, 0]) expect(cut(oneLine, max).length).toBeLessThan(max + 200);
  });
});

describe('every name of a plan (the job summary, then the log)', () => {
  const outcome = (profile: string, add: string[], del: string[]) => ({ profile, add, delete: del, status: 'planned' as const });
  const names = (kind: string, n: number) => Array.from({ length: n }, (_, i) => `${kind}-${i}`);

  it('lists the deletions of every profile before any addition, and spills what the budget cannot hold, losing none', () => {
    const profiles = [outcome('finance', names('add', 300), names('del', 20)), outcome('legal', [], ['crown-jewels'])];
    const listing = everyName(profiles, 1_000);
    expect(Buffer.byteLength(listing.markdown)).toBeLessThan(1_000 + 600);
    expect(listing.markdown.indexOf('- crown-jewels')).toBeGreaterThan(0);
    expect(listing.markdown.indexOf('- crown-jewels')).toBeLessThan(listing.markdown.indexOf('+ add-0') >>> 0);
    const listed = [...listing.markdown.split('\n'), ...listing.spilled.flatMap((g) => g.lines)];
    for (const n of names('add', 300)) expect(listed).toContain(`+ ${n}`);
    for (const n of [...names('del', 20), 'crown-jewels']) expect(listed).toContain(`- ${n}`);
    expect(listing.spilledCount).toBe(listing.spilled.reduce((sum, g) => sum + g.lines.length, 0));
    expect(listing.markdown).toContain(`${listing.spilledCount} names did not fit in this summary`);
  });

  it('keeps a name from the service inside its code block', () => {
    const listing = everyName([outcome('x', [], ['a```\n<img src=x>'])], 10_000);
    expect((listing.markdown.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect(listing.markdown).not.toMatch(/^<img/m);
  });

  it('knows when a comment shows every name', () => {
    expect(tally([outcome('a', names('n', 100), names('d', 100))], 'short').whole).toBe(true);
    expect(tally([outcome('a', names('n', 101), [])], 'short').whole).toBe(false);
    expect(tally([outcome('a', [], [])], 'x'.repeat(MAX_PLAN_CHARS + 1))).toEqual({ added: 0, deleted: 0, whole: false });
  });
});
