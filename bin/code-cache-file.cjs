// A V8 code cache file (dist/*.cjs.cache, and the single executable's assets) holds the exact bytes of the
// bundle it was made from, then V8's data; it is used only for that bundle. V8 itself checks a cache against
// the length of the source only, so a rebuild of the same length (another version, one edit) would run the
// old functions the cache holds. Comparing the bytes costs 0.1 to 0.3 ms of a run; hashing them cost more
// (node:crypto's sha256 about 4 ms, most of it loading the module, a hash in JavaScript about 3 ms): see
// docs/performance.md. The build gives the single executable this file's text (scripts/build-binary.mjs).
'use strict';

const MAGIC = Buffer.from('scpctl code cache 1\n', 'latin1');
const HEAD = MAGIC.length + 4;

/** V8's data in `file` (a cache file's bytes) when it was made from exactly `bundle` (its bytes); else undefined. */
function cacheFor(bundle, file) {
  if (file === undefined || file.length < HEAD || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const length = file.readUInt32LE(MAGIC.length);
  if (length !== bundle.length || file.length < HEAD + length || !file.subarray(HEAD, HEAD + length).equals(bundle)) return undefined;
  return file.subarray(HEAD + length);
}

/** The cache file's bytes for V8's `data`, made from `bundle` (its bytes). */
function sealCache(bundle, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(bundle.length);
  return Buffer.concat([MAGIC, length, bundle, data]);
}

module.exports = { cacheFor, sealCache };
