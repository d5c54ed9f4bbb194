import {readFileSync} from 'node:fs';

/** dpkg's record of what is installed; a machine without it has no Debian packages to stand in with. */
const dpkgStatus = '/var/lib/dpkg/status';

let installed: Set<string> | null = null;

/** Names (also `name:arch`) of the Debian packages installed here, read once from dpkg's status file. */
export function installedPackages(): Set<string> {
	installed ??= readStatus();
	return installed;
}

function readStatus(): Set<string> {
	let text: string;
	try {
		text = readFileSync(dpkgStatus, 'utf8');
	} catch {
		return new Set();
	}
	const names = new Set<string>();
	for (const stanza of text.split(/\n\n+/)) {
		const name = /^Package:\s*(\S+)/m.exec(stanza)?.[1];
		const arch = /^Architecture:\s*(\S+)/m.exec(stanza)?.[1];
		if (name === undefined || !/^Status:.*\binstalled$/m.test(stanza)) continue;
		names.add(name);
		if (arch !== undefined) names.add(`${name}:${arch}`);
	}
	return names;
}
