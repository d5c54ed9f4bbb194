import {existsSync, readFileSync, statSync} from 'node:fs';
import {isAbsolute, join, posix, relative, resolve} from 'node:path';
import {parseDockerfile, wordsOf, type DockerInstruction} from './dockerfile.js';
import {installedPackages} from './installed-packages.js';

/** What the Dockerfile asks, as this machine stands in for its image: the agent's folder and what is copied into it. */
export interface TaskEnvironment {
	workdir: string;
	/** `from` relative to environment/, `to` relative to the WORKDIR (`.` for the folder itself). */
	copies: Array<{from: string; to: string}>;
}

/** Images built on Debian or Ubuntu, whose packages this machine's dpkg can be asked about. */
const debianImages = new Set(['debian', 'ubuntu', 'python', 'node', 'buildpack-deps', 'golang', 'rust', 'openjdk', 'eclipse-temurin', 'ruby', 'perl', 'gcc']);
const debianTags = /(bookworm|bullseye|buster|trixie|sid|jammy|noble|focal|oracular|plucky)/;

/** RUN commands that need nothing beyond the packages they install (checked), or only tidy the image. */
const harmless = [/^apt(-get)? (update|clean|autoremove)\b/, /^rm -rf \/var\/lib\/apt\/lists(\/\*)?$/, /^(true|:)$/, /^export DEBIAN_FRONTEND=\S+$/];

/** The environment the task's Dockerfile describes, or every reason this machine cannot stand in for its image. */
export function readTaskEnvironment(taskDir: string): {ok: true; environment: TaskEnvironment} | {ok: false; problems: string[]} {
	const file = join(taskDir, 'environment', 'Dockerfile');
	if (!existsSync(file)) return {ok: false, problems: ['environment/Dockerfile is missing (a docker-compose environment is not stood in for)']};
	const problems: string[] = [...machineProblems()];
	let workdir: string | null = null;
	const copies: TaskEnvironment['copies'] = [];
	for (const instruction of parseDockerfile(readFileSync(file, 'utf8'))) {
		const at = `Dockerfile line ${instruction.line}`;
		switch (instruction.keyword) {
			case 'FROM': problems.push(...baseProblems(instruction.args, at)); break;
			case 'WORKDIR': workdir = posix.resolve(workdir ?? '/', instruction.args.replace(/^(['"])(.*)\1$/, '$2')); break;
			case 'COPY': case 'ADD': problems.push(...copyProblems(taskDir, instruction, workdir, copies, at)); break;
			case 'RUN': problems.push(...runProblems(instruction.args, workdir, at)); break;
			// Metadata and what runs the container, not what is in it.
			case 'LABEL': case 'EXPOSE': case 'CMD': case 'ENTRYPOINT': case 'MAINTAINER': break;
			case 'ENV': case 'ARG': problems.push(...variableProblems(instruction, at)); break;
			default: problems.push(`${at}: ${instruction.keyword} is not stood in for without Docker`);
		}
	}
	if (workdir === null) problems.push('the Dockerfile names no WORKDIR (the folder the agent works in)');
	else problems.push(...layoutProblems(workdir));
	return problems.length > 0 ? {ok: false, problems} : {ok: true, environment: {workdir: workdir!, copies}};
}

/** This machine must itself be Debian-like for its root to stand in for a Debian-like image. */
function machineProblems(): string[] {
	const release = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
	const ids = [/^ID=(.*)$/m, /^ID_LIKE=(.*)$/m].map(pattern => pattern.exec(release)?.[1]?.replace(/"/g, '') ?? '').join(' ');
	return /\b(debian|ubuntu)\b/.test(ids) ? [] : ['this machine is not Debian-like (/etc/os-release), so its root cannot stand in for the image'];
}

function baseProblems(args: string, at: string): string[] {
	const image = wordsOf(args).find(word => !word.startsWith('--')) ?? '';
	// A registry may carry a port (`host:5000/ubuntu:22.04`): the tag is after the last name's colon.
	const reference = image.replace(/@.*$/, '');
	const name = reference.slice(reference.lastIndexOf('/') + 1);
	const [base = '', tag = ''] = name.split(':');
	if (tag.includes('alpine') || (!debianImages.has(base) && !debianTags.test(tag))) return [`${at}: FROM ${image} is not a Debian or Ubuntu image this machine can stand in for`];
	return [];
}

/** A COPY from environment/ into the WORKDIR is laid into the workspace; anything else cannot be. */
function copyProblems(taskDir: string, instruction: DockerInstruction, workdir: string | null, copies: TaskEnvironment['copies'], at: string): string[] {
	const words = wordsOf(instruction.args).filter(word => !word.startsWith('--'));
	if (instruction.args.includes('--from')) return [`${at}: COPY --from another stage is not stood in for`];
	// ADD unpacks a local archive, which a copy would not.
	if (instruction.keyword === 'ADD' && words.slice(0, -1).some(word => /\.(tar|tgz|tar\.\w+)$/.test(word) || /^https?:/.test(word))) return [`${at}: ADD of an archive or a URL is not stood in for (use COPY of plain files)`];
	if (words.length < 2) return [`${at}: ${instruction.keyword} needs a source and a destination`];
	if (workdir === null) return [`${at}: ${instruction.keyword} before any WORKDIR`];
	const dest = words.at(-1)!;
	const target = posix.resolve(workdir, dest);
	const inside = posix.relative(workdir, target);
	if (inside.startsWith('..') || posix.isAbsolute(inside)) return [`${at}: ${instruction.keyword} to ${dest} lies outside the WORKDIR ${workdir}, which is all the agent's folder holds`];
	const context = join(taskDir, 'environment');
	const problems: string[] = [];
	const sources = words.slice(0, -1);
	for (const source of sources) {
		const from = resolve(context, source);
		const rel = relative(context, from);
		if (rel.startsWith('..') || isAbsolute(rel) || !existsSync(from)) { problems.push(`${at}: ${instruction.keyword} ${source}: not a file of environment/`); continue; }
		// Into a folder (a trailing slash, several sources, or a folder copied whole): the source keeps its name unless it is a folder.
		const intoFolder = dest.endsWith('/') || sources.length > 1;
		const to = intoFolder && !statSync(from).isDirectory() ? posix.join(inside || '.', posix.basename(rel)) : (inside || '.');
		copies.push({from: rel === '' ? '.' : rel.split('\\').join('/'), to});
	}
	return problems;
}

/** Variables only for apt's own prompts (DEBIAN_FRONTEND) change nothing the task sees; any other would be missing. */
function variableProblems(instruction: DockerInstruction, at: string): string[] {
	const names = wordsOf(instruction.args).map(word => word.split('=')[0]!);
	const others = names.filter(name => name !== 'DEBIAN_FRONTEND' && !/^(noninteractive|dialog|readline)$/.test(name));
	return others.length === 0 ? [] : [`${at}: ${instruction.keyword} ${others.join(' ')} is not stood in for without Docker (only DEBIAN_FRONTEND is)`];
}

/** Each command of a RUN line: apt-get install of packages this machine has, a folder under the WORKDIR, or tidying. */
function runProblems(args: string, workdir: string | null, at: string): string[] {
	const commands = args.split(/\s*(?:&&|;|\|\|)\s*/).map(command => command.trim()).filter(command => command !== '');
	return commands.flatMap(command => {
		if (harmless.some(pattern => pattern.test(command))) return [];
		const install = /^(?:DEBIAN_FRONTEND=\S+\s+)?apt(?:-get)? install\s+(.*)$/.exec(command);
		if (install !== null) return packageProblems(install[1]!, at);
		const mkdir = /^mkdir(?:\s+-p)?\s+(\S+)$/.exec(command);
		if (mkdir !== null && workdir !== null && !posix.relative(workdir, posix.resolve(workdir, mkdir[1]!)).startsWith('..')) return [];
		return [`${at}: RUN ${command.slice(0, 80)}: only apt-get install (checked against this machine's packages) is stood in for`];
	});
}

function packageProblems(words: string, at: string): string[] {
	const installed = installedPackages();
	const names = wordsOf(words).filter(word => !word.startsWith('-')).map(word => word.replace(/=.*$/, ''));
	const missing = names.filter(name => !installed.has(name));
	return missing.length === 0 ? [] : [`${at}: needs the package${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which this machine does not have (dpkg)`];
}

/** The paths the view lays out must be makeable: absent from the machine's root, or already a folder there. */
function layoutProblems(workdir: string): string[] {
	return [workdir, '/tests', '/logs/verifier'].flatMap(path => {
		const top = `/${path.split('/')[1]}`;
		if (path === '/') return ['the WORKDIR / cannot be the agent\'s folder'];
		if (!existsSync(top) || (existsSync(path) && statSync(path).isDirectory())) return [];
		return [`${path} cannot be laid out here: ${top} exists on this machine and ${path} is not a folder in it`];
	});
}
