// Doctor's table of checks: its order and what each row needs from the rows before it.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/commands/doctor/index.js';
import type { DoctorState } from '../../src/commands/doctor/state.js';

const row = (name: string) => CHECKS.find((c) => c.name === name)!;
const state = (more: Partial<DoctorState>): DoctorState => ({ ctx: undefined as never, timeoutMs: 1000, ...more });
const https = new URL('https://tenant.example.com');
const http = new URL('http://127.0.0.1:8787');
const settings = {} as never;
const route = { host: 'tenant.example.com', port: 443 };

describe('doctor CHECKS', () => {
  it('run in the order a request needs them', () => {
    expect(CHECKS.map((c) => c.name)).toEqual([
      'config file', 'base URL', 'proxy', 'DNS', 'TCP', 'CA certificates', 'TLS', 'token', 'token store', 'token accepted', 'clock',
    ]);
  });

  it('each skips with the reason its prerequisite gives', () => {
    expect(row('base URL').skip!(state({}))).toBe('the settings could not be read');
    expect(row('proxy').skip!(state({ settings }))).toBe('needs a base URL');
    expect(row('DNS').skip!(state({ settings, base: https }))).toBe('the proxy setting is unusable');
    expect(row('TCP').skip!(state({ settings, base: https, route, dnsFailed: true }))).toBe('DNS failed');
    expect(row('TLS').skip!(state({ settings, base: https, route, caFailed: true }))).toBe('the CA file is unusable');
    expect(row('TLS').skip!(state({ settings, base: https, route }))).toBe('no TCP connection');
    expect(row('TLS').skip!(state({ settings, base: http, route }))).toBeUndefined();
    expect(row('token accepted').skip!(state({ settings: { token: {} } as never }))).toBe('the service cannot be reached');
    expect(row('token accepted').skip!(state({ secure: true }))).toBe('needs a token');
    expect(row('clock').skip!(state({}))).toBe('needs an answer from the service');
  });

  it('the CA line is there only for https with a route', () => {
    expect(row('CA certificates').applies!(state({ settings, base: https, route }))).toBe(true);
    expect(row('CA certificates').applies!(state({ settings, base: http, route }))).toBe(false);
    expect(row('CA certificates').applies!(state({ settings, base: https }))).toBe(false);
  });
});
