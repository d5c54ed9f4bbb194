import {readFileSync} from 'node:fs';
import path from 'node:path';

/** The one command that installs bubblewrap where it is missing. */
export const installFix = 'apt-get install -y bubblewrap';

/**
 * The one command that lets an installed bwrap create its namespaces, read from the kernel's switches under `procSys`
 * (a parameter so each switch can be shown off): Debian's clone switch, the namespace count, Ubuntu's AppArmor
 * restriction. Root needs none of them: a root that cannot is a container without CAP_SYS_ADMIN.
 */
export function namespaceFix(procSys = '/proc/sys', uid = process.getuid?.() ?? 0): string {
	const read = (name: string): string | null => {
		try {
			return readFileSync(path.join(procSys, name), 'utf8').trim();
		} catch {
			return null;
		}
	};
	if (uid !== 0) {
		if (read('kernel/unprivileged_userns_clone') === '0') return 'sysctl -w kernel.unprivileged_userns_clone=1';
		if (read('user/max_user_namespaces') === '0') return 'sysctl -w user.max_user_namespaces=15000';
		if (read('kernel/apparmor_restrict_unprivileged_userns') === '1') return 'sysctl -w kernel.apparmor_restrict_unprivileged_userns=0';
	}
	return 'docker run --privileged (this container forbids the namespaces bwrap needs)';
}
