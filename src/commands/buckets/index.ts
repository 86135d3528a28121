// The bucket commands as one module: the CLI loads them together, in one file of the build, because
// a command that loads one file instead of six starts measurably faster (npm run bench, case 2).
export { append } from './append.js';
export { remove } from './delete.js';
export { modify } from './modify.js';
export { replace } from './replace.js';
export { sync } from './sync.js';
export { view } from './view.js';
export { history, restore } from './history.js';
