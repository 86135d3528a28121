// The action's plan comment (action/src/plan-comment.ts): its hidden line found again only for its manifest,
// pull request and tenant, its seal made from the token; a plan cut to fit a comment stays Markdown.
import { describe, expect, it } from 'vitest';
import { MAX_PLAN_CHARS, cut, markerOf, planCommentBody, reviewedIn, tenantIdentity } from '../../action/src/plan-comment.js';

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
});
