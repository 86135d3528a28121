// Shared by the unit tests: run something that must throw a typed scpctl error, and hand the error back.
import { expect } from 'vitest';
import { ScpctlError } from '../../src/errors.js';

export function caught(fn: () => unknown): ScpctlError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ScpctlError);
    return error as ScpctlError;
  }
  throw new Error('expected a throw');
}
