/** Sends a signal to a whole process group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
	// A pgid of 0 or 1 would signal our own group or every process: never.
	if (pgid <= 1) throw new Error(`refusing to signal process group ${pgid}`);
	try {
		process.kill(-pgid, signal);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
		throw error;
	}
}

/** Whether any process, a zombie included, is still in the group: one signal-0 probe instead of a scan of /proc. */
export function groupExists(pgid: number): boolean {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		// EPERM means a member exists that we may not signal.
		return (error as NodeJS.ErrnoException).code !== 'ESRCH';
	}
}
