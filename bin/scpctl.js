#!/usr/bin/env node
// The shim: everything lives in the built entry so that start-up loads one module graph.
import { main } from '../dist/cli.js';

main(process.argv.slice(2));
