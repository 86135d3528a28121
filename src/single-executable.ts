// The entry of the single executable (npm run build:binary): Node's single-executable application runs
// this bundle as its main script, with argv as a script sees it (the executable, itself, then the words).
import { runAsProcess } from './main.js';

void runAsProcess(process.argv.slice(2));
