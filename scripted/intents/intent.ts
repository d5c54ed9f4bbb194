import type {ToolRequest} from '../../tasks/reference/reference-script.js';

/**
 * What a reference step means, whatever the agent's tools are called: the built-in tools' requests read as intents.
 * The references keep yielding harness-lab's own calls (so the built-in engine plays them unchanged); an agent's
 * tools are chosen for the intent (map-intent.ts).
 */
export type Intent =
	| {kind: 'list'; path: string}
	| {kind: 'read'; path: string}
	| {kind: 'write'; path: string; content: string}
	| {kind: 'run'; command: string}
	/** A command started in the background; it is polled with later `run`s. */
	| {kind: 'start'; command: string};

/** The intent of a built-in tool request, or null for a tool that has no intent (a cartridge's own). */
export function intentOf({tool, args}: ToolRequest): Intent | null {
	const path = typeof args.path === 'string' ? args.path : '.';
	if (tool === 'list_files') return {kind: 'list', path};
	if (tool === 'read_file') return {kind: 'read', path};
	if (tool === 'write_file' && typeof args.content === 'string') return {kind: 'write', path, content: args.content};
	if (tool === 'run_command' && typeof args.command === 'string') return args.background === true ? {kind: 'start', command: args.command} : {kind: 'run', command: args.command};
	return null;
}
