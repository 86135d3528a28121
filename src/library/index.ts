// The package's entry (contract section 14): what public.d.ts declares, each assigned to its declaration.
import { connect as connectImpl } from './scpctl.js';
import { connectAll as connectAllImpl } from './many.js';
import { ScpctlError as ScpctlErrorImpl } from '../errors.js';
import { BucketList as BucketListImpl } from '../api/bucket-list.js';
import { planDigest as planDigestOf } from '../core/plan-digest.js';
import type * as Public from './public.js';

export const connect: typeof Public.connect = connectImpl;
export const connectAll: typeof Public.connectAll = connectAllImpl;
export const ScpctlError: typeof Public.ScpctlError = ScpctlErrorImpl;
export const BucketList: typeof Public.BucketList = BucketListImpl;
export const planDigest: typeof Public.planDigest = (plan) => planDigestOf(plan.profiles);
// The classes as types too, as public.d.ts declares them (`catch (error) { … error as ScpctlError }`).
export type ScpctlError = Public.ScpctlError;
export type BucketList = Public.BucketList;
