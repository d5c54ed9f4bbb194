import {existsSync, realpathSync, statSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {namespaceArgs} from './check-sandbox.js';
import type {Sandbox} from './sandbox-options.js';
import {mountArgs, viewPath, viewRootArgs} from './view-root.js';

/**
 * The argv that runs `argv` in `cwd` under bubblewrap. Order matters: the read-only root, fresh /dev, /proc and a
 * private /tmp; what must stay readable (the hidden paths inside it win; what lies inside a hidden folder is bound after
 * it); the hidden paths; the writable ones (they may lie inside
 * a hidden one); then the hidden directories become read-only. No `--new-session`: the command must stay in the
 * process group that ends it.
 */
export function sandboxArgv(bwrap: string, sandbox: Sandbox, cwd: string, argv: string[]): string[] {
	const hidden = outermost(sandbox.hidden.map(entry => path.resolve(entry)).filter(entry => existsSync(entry)));
	const dirs = hidden.filter(entry => statSync(entry).isDirectory());
	const files = hidden.filter(entry => !dirs.includes(entry));
	const bridged = throughBridges(sandbox, argv);
	const readable = besideHidden([...runtimeUnderTmp(), ...bridged.readable, ...sandbox.readable.map(entry => path.resolve(entry))].filter(entry => existsSync(entry)), dirs);
	const mounts = sandbox.mounts ?? [];
	return [
		bwrap,
		...namespaceArgs(sandbox.network),
		...(mounts.length === 0 ? ['--ro-bind', '/', '/'] : viewRootArgs()),
		'--dev', '/dev',
		'--proc', '/proc',
		'--tmpfs', '/tmp',
		...readable.around.flatMap(entry => ['--ro-bind', entry, entry]),
		...dirs.flatMap(dir => ['--tmpfs', dir]),
		...files.flatMap(file => ['--ro-bind', '/dev/null', file]),
		...readable.inside.flatMap(entry => ['--ro-bind', entry, entry]),
		...sandbox.writable.map(entry => path.resolve(entry)).flatMap(dir => ['--bind', dir, dir]),
		...dirs.flatMap(dir => ['--remount-ro', dir]),
		...mountArgs(mounts),
		'--chdir', viewPath(mounts, cwd),
		'--',
		...bridged.argv,
	];
}

const bridgeMain = fileURLToPath(new URL('./bridge-main.js', import.meta.url));

/** Without network, each bridged port is served inside by bridge-main, which then runs the command; its socket's folder and the script stay readable. */
function throughBridges(sandbox: Sandbox, argv: string[]): {argv: string[]; readable: string[]} {
	const bridges = sandbox.network ? [] : sandbox.bridges ?? [];
	if (bridges.length === 0) return {argv, readable: []};
	return {
		argv: [process.execPath, bridgeMain, ...bridges.flatMap(bridge => ['--bridge', `${bridge.port}=${bridge.socket}`]), '--', ...argv],
		readable: [path.dirname(bridgeMain), ...bridges.map(bridge => path.dirname(bridge.socket))],
	};
}

/**
 * A readable path that holds hidden ones is bound first, so that they win over it; one inside a hidden folder (an agent's
 * package in the store under home) is bound after that folder is emptied, so that it stays.
 */
function besideHidden(readable: string[], hiddenDirs: string[]): {around: string[]; inside: string[]} {
	const insideHidden = (entry: string): boolean => hiddenDirs.some(dir => entry === dir || entry.startsWith(dir === '/' ? '/' : `${dir}/`));
	return {around: readable.filter(entry => !insideHidden(entry)), inside: readable.filter(insideHidden)};
}

/** A hidden path inside another hidden one is already gone, and mounting over it again would fail on a read-only remount. */
function outermost(paths: string[]): string[] {
	return paths.filter(entry => !paths.some(other => other !== entry && entry.startsWith(other === '/' ? '/' : `${other}/`)));
}

/**
 * The private /tmp hides scratch files, not the programs a command is run with: when this Node or a folder on PATH
 * lives under /tmp (a checkout cloned there, its node_modules/.bin first on PATH), it stays readable. A Node
 * installed in a node_modules folder (the `node` package) keeps that folder, whose modules Node may be told to preload.
 */
function runtimeUnderTmp(): string[] {
	const underTmp = (entry: string): boolean => entry.startsWith('/tmp/');
	const node = path.dirname(realpathSync(process.execPath));
	const modules = node.lastIndexOf('/node_modules/');
	const onPath = (process.env.PATH ?? '').split(path.delimiter).filter(entry => path.isAbsolute(entry));
	return [...new Set([modules === -1 ? node : node.slice(0, modules + '/node_modules'.length), ...onPath].filter(underTmp))];
}
