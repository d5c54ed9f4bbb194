import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';

/**
 * The native binary `opencode-ai` would have linked as its bin: the store installs with --ignore-scripts, so the
 * package's own `bin/opencode.exe` is still the placeholder its postinstall replaces. The binary is in the
 * platform's optional dependency beside it, chosen as that postinstall chooses (baseline without AVX2, musl on musl).
 */
export function platformBinary(tree: string): string {
	const platform = process.platform === 'win32' ? 'windows' : process.platform;
	const base = `opencode-${platform}-${process.arch}`;
	const variants = [
		...(process.arch === 'x64' && !hasAvx2() ? ['-baseline'] : ['']),
	].map(variant => `${base}${variant}${isMusl() ? '-musl' : ''}`);
	const binary = platform === 'windows' ? 'opencode.exe' : 'opencode';
	return join(tree, variants[0]!, 'bin', binary);
}

function hasAvx2(): boolean {
	if (process.platform !== 'linux') return true;
	try {
		return /(^|\s)avx2(\s|$)/i.test(readFileSync('/proc/cpuinfo', 'utf8'));
	} catch {
		return false;
	}
}

function isMusl(): boolean {
	return process.platform === 'linux' && ['/lib/ld-musl-x86_64.so.1', '/lib/ld-musl-aarch64.so.1'].some(path => existsSync(path));
}
