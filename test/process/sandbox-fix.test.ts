import {mkdir, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import t from 'tap';
import {namespaceFix} from '../../process/sandbox/sandbox-fix.js';
import {tempDir} from '../temp-dir.js';

/** A /proc/sys with the given switches, so each kernel's refusal is shown without changing this machine's. */
async function procSys(t: Parameters<typeof tempDir>[0], switches: Record<string, string>): Promise<string> {
	const root = await tempDir(t, 'hlab-proc-sys-');
	for (const [name, value] of Object.entries(switches)) {
		await mkdir(join(root, name, '..'), {recursive: true});
		await writeFile(join(root, name), `${value}\n`);
	}
	return root;
}

t.test('an unprivileged user is told the one sysctl that turns user namespaces on', async t => {
	t.equal(namespaceFix(await procSys(t, {'kernel/unprivileged_userns_clone': '0', 'user/max_user_namespaces': '100'}), 1000), 'sysctl -w kernel.unprivileged_userns_clone=1');
	t.equal(namespaceFix(await procSys(t, {'user/max_user_namespaces': '0'}), 1000), 'sysctl -w user.max_user_namespaces=15000');
	t.equal(namespaceFix(await procSys(t, {'user/max_user_namespaces': '100', 'kernel/apparmor_restrict_unprivileged_userns': '1'}), 1000), 'sysctl -w kernel.apparmor_restrict_unprivileged_userns=0');
});

t.test('root needs no user namespace: a root that cannot sandbox is in a container that forbids it', async t => {
	t.match(namespaceFix(await procSys(t, {'user/max_user_namespaces': '0'}), 0), /^docker run --privileged/);
	t.match(namespaceFix(await procSys(t, {}), 1000), /^docker run --privileged/, 'every switch on: the container is what forbids it');
});
