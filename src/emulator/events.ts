// Synthetic events for the emulator's report endpoint.
// Everything here is pure: the same (count, seed, now) always gives the same events, so tests
// and benchmarks can rely on exact numbers. Reports over them (parameters, queries, grouping) are
// reports.ts's.

import type { REPORT_GROUPBYS, REPORT_TYPES } from '../core/report-query.js';

const ALERT_TYPES = ['policy', 'dlp', 'quarantine', 'watchlist'] as const;
const ACTIVITIES = ['Upload', 'Download', 'Share', 'Login', 'Delete', 'Edit'] as const;

export type EventType = (typeof REPORT_TYPES)[number];
export type GroupBy = (typeof REPORT_GROUPBYS)[number];

export interface EmuEvent {
  timestamp: number;
  insertion_time: number;
  type: EventType;
  application: string;
  user: string;
  device: string;
  activity: string;
  alert_type?: (typeof ALERT_TYPES)[number];
  bytes: number;
  /**
   * A 19-digit ID, as the service sends (beyond 2^53: JSON.parse would lose digits). Held as its digits and
   * written into the JSON as a bare number (see `reportJson`).
   */
  request_id?: string;
}

export type GroupRecord = { [field: string]: string | number };

export const APPLICATIONS: readonly string[] = [
  'Dropbox', 'Box', 'Google Drive', 'OneDrive', 'Slack', 'Salesforce', 'GitHub', 'Microsoft Teams',
  'Zoom', 'Jira', 'Confluence', 'Trello', 'Asana', 'Notion', 'Evernote', 'WeTransfer', 'iCloud',
  'Amazon S3', 'Gmail', 'Outlook', 'SharePoint', 'Workday', 'ServiceNow', 'Zendesk', 'HubSpot',
  'DocuSign', 'Adobe Creative Cloud', 'Figma', 'Canva', 'Miro', 'Monday.com', 'Smartsheet',
  'Airtable', 'Bitbucket', 'GitLab', 'Webex', 'WhatsApp', 'LinkedIn', 'YouTube', 'ChatGPT',
];

const FIRST_NAMES = [
  'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory',
  'niaj', 'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yolanda', 'zoe',
  'aaron', 'bianca', 'chen', 'diego', 'elena', 'farah', 'gustav', 'hana', 'igor', 'jamal', 'kenji',
  'lena', 'marco', 'nora', 'omar', 'priya', 'quinn', 'rosa', 'sanjay', 'tomas', 'uma', 'vera',
  'wei', 'ximena', 'yusuf', 'zara', 'leo', 'mia', 'noah',
];

const DEVICE_KINDS = ['LAPTOP', 'DESKTOP', 'MACBOOK'];
const MOBILE_KINDS = ['IPHONE', 'ANDROID'];
const THIRTY_DAYS = 2592000;

/** mulberry32: tiny, fast and good enough to make synthetic data look random. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pickType(r: number): EventType {
  if (r < 0.6) return 'application';
  if (r < 0.75) return 'connection';
  if (r < 0.9) return 'alert';
  return 'network';
}

/**
 * Events over the 30 days before `now` (Unix seconds), newest first.
 * Popularity is skewed (a product of two uniforms) so that grouped reports have a clear top and a long tail.
 */
export function generateEvents(count: number, seed: number, now: number): EmuEvent[] {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`event count must be an integer >= 0`);
  const rand = mulberry32(seed);
  const apps = [...APPLICATIONS];
  // A seeded shuffle so that different seeds have different "top" applications.
  for (let i = apps.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [apps[i], apps[j]] = [apps[j], apps[i]];
  }
  const userCount = Math.max(1, Math.round(count / 20));
  const users = Array.from({ length: userCount }, (_, i) => {
    const round = Math.floor(i / FIRST_NAMES.length);
    return `${FIRST_NAMES[i % FIRST_NAMES.length]}${round === 0 ? '' : round + 1}@example.com`;
  });
  const devices = (kinds: readonly string[]) => users.map((_, u) => `${kinds[u % kinds.length]}-${String(u + 1).padStart(4, '0')}`);
  const [laptops, phones] = [devices(DEVICE_KINDS), devices(MOBILE_KINDS)];

  // Ages are drawn first and sorted (a typed-array sort, no comparator) so that events come out
  // newest first without sorting objects.
  const ages = new Uint32Array(count);
  for (let i = 0; i < count; i++) ages[i] = Math.floor(rand() * THIRTY_DAYS);
  ages.sort();

  const events: EmuEvent[] = new Array(count);
  // IDs come from a stream of their own, so the events stay what they were before IDs were added.
  const idRand = mulberry32(seed ^ 0x1d5eed);
  const nineDigits = (): string => String(Math.floor(idRand() * 1e9)).padStart(9, '0');
  for (let i = 0; i < count; i++) {
    const request_id = `7${nineDigits()}${nineDigits()}`;
    const timestamp = now - ages[i];
    const type = pickType(rand());
    const u = Math.floor(rand() * rand() * userCount);
    const device = rand() < 0.2 ? phones[u] : laptops[u];
    const insertion_time = timestamp + Math.floor(rand() * 301);
    const application = apps[Math.floor(rand() * rand() * apps.length)];
    const activity = ACTIVITIES[Math.floor(rand() * ACTIVITIES.length)];
    const bytes = Math.floor(200 * Math.pow(10, rand() * 5));
    const user = users[u];
    // Two literals rather than a spread: key order stays natural (bytes last) and it is fast.
    events[i] =
      type === 'alert'
        ? {
            timestamp, insertion_time, type, application, user, device, activity,
            alert_type: ALERT_TYPES[Math.floor(rand() * ALERT_TYPES.length)],
            bytes, request_id,
          }
        : { timestamp, insertion_time, type, application, user, device, activity, bytes, request_id };
  }
  return events;
}
