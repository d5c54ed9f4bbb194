import {renderCliReference} from './cli-reference.js';

// Printed, not written: `npm run docs:cli` redirects it to docs/cli.md.
process.stdout.write(await renderCliReference());
