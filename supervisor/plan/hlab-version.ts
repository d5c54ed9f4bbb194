import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {installRoot} from '../../files/install-root.js';

/** The version of this harness-lab installation, from its package.json. */
export const hlabVersion: string = (JSON.parse(readFileSync(join(installRoot, 'package.json'), 'utf8')) as {version: string}).version;
