import {join} from 'node:path';
import {installRoot} from '../files/install-root.js';

/** This installation's `hlab` launcher: checks run it as a user would, never by importing the command line. */
export const hlabLauncher = join(installRoot, 'bin', 'hlab.js');

/** The argv that runs this installation's `hlab` with the Node running the check. */
export function hlabArgv(args: string[]): string[] {
	return [process.execPath, hlabLauncher, ...args];
}
